import { AREAS, canAccess, type AreaName } from '@se/core';
import { ROUTES, type AppRoute } from '../routes.tsx';

export interface MenuGroup {
  area: AreaName;
  label: string;
  routes: AppRoute[];
}

/**
 * The side menu: protected routes grouped by area in AREAS order, limited to what the
 * permission number allows. `permission` null means not known yet (the check failed):
 * then everything is listed and the server decides on each call.
 */
export function menuGroups(permission: number | null): MenuGroup[] {
  const groups: MenuGroup[] = [];
  for (const area of Object.keys(AREAS) as AreaName[]) {
    const routes = ROUTES.filter(
      (r) =>
        r.access === 'auth' &&
        r.area === area &&
        (permission === null || canAccess(permission, r.permission)),
    );
    if (routes.length > 0) groups.push({ area, label: AREAS[area].label, routes });
  }
  return groups;
}
