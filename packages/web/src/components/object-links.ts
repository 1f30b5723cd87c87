import { canAccess, type DeviceKind } from '@se/core';
import { useContext } from 'react';
import { matchPath, useLocation, useSearchParams } from 'react-router';
import { routeByName, type AppRoute } from '../navigation/names.ts';
import { PageRouteContext } from '../navigation/page-route.ts';
import { useSession } from '../session/store.ts';

/*
 * Where each kind of object is shown (issue 19 "everything links to what it names"): the
 * list route of its screen and the URL parameter that opens its drawer there. The link
 * components (ObjectLinks.tsx) build these; the screens read the parameter with
 * useLinkedParam().
 */

/** URL parameter that opens a toilet's detail drawer on /smart-toilet. */
export const TOILET_PARAM = 'toilet';
/** URL parameter that opens a device's drawer on its kind's list (the device's id). */
export const DEVICE_PARAM = 'device';

/** The list route of each device kind that has one (by route name, see routes.tsx). */
const DEVICE_ROUTE: Partial<Record<DeviceKind | 'sensor', string>> = {
  jwb: 'Equipments',
  evaluate: 'Evaluates',
  gateway: 'Gateways',
  electric_meter: 'ElectricMeters',
  water_meter: 'WaterMeters',
  paper_machine: 'PaperMachines',
};

/** Where a link leads, and the route it opens (whose permission decides whether it is a link). */
export interface LinkTarget {
  to: string;
  route: AppRoute;
}

const target = (routeName: string, query: Record<string, string>): LinkTarget | null => {
  const route = routeByName(routeName);
  return route ? { to: `${route.path}?${new URLSearchParams(query).toString()}`, route } : null;
};

/** The device's drawer on its list, or null for a kind without a list screen. */
export function deviceTarget(kind: string, id: number): LinkTarget | null {
  const name = DEVICE_ROUTE[kind as DeviceKind];
  return name ? target(name, { [DEVICE_PARAM]: String(id) }) : null;
}

/** The toilet's detail drawer on /smart-toilet. */
export const toiletTarget = (id: number) => target('Toilets', { [TOILET_PARAM]: String(id) });

/** The reviews of one toilet on /comment (its filter keeps `id:name`, see ToiletPicker). */
export const toiletReviewsTarget = (id: number, name: string) =>
  target('Comment', { toilet: `${id}:${name}` });

/** A user on /users, found by name. */
export const userTarget = (name: string) => target('Users', { keywords: name });

/** The repair records of a device: its history of faults and repairs. */
export const deviceRecordsTarget = (serNum: string) => target('MaintenanceRecords', { keywords: serNum });

/** A campus room on /ss-room (its building's rooms, found by number), or a building's rooms. */
export const roomTarget = (buildingId: number, roomNumber?: string) =>
  target('SsRoom', { building_id: String(buildingId), ...(roomNumber ? { keywords: roomNumber } : {}) });

/**
 * Whether the signed-in user may open a target's route; while the permission is not known
 * the link is shown and the server decides.
 */
export function useMayOpen(): (t: LinkTarget | null) => t is LinkTarget {
  const isLogin = useSession((s) => s.isLogin);
  const permission = useSession((s) => s.permission);
  return (t): t is LinkTarget => t !== null && (!isLogin || canAccess(permission, t.route.permission));
}

/**
 * A parameter of the page's URL that names an object to open (a link's target), while this
 * page is the one shown (a kept-alive page does not react to another route's URL), and a
 * way to drop it once its drawer is closed.
 */
export function useLinkedParam(name: string): [string | null, () => void] {
  const route = useContext(PageRouteContext);
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const shown = !route || matchPath(route.path, pathname) !== null;
  const value = shown ? params.get(name) : null;
  // Reads the address as it is when called, so a callback kept from an older render clears
  // no more than `name`.
  const clear = () =>
    setParams(
      (prev) => {
        if (!prev.has(name)) return prev;
        const next = new URLSearchParams(prev);
        next.delete(name);
        return next;
      },
      { replace: true },
    );
  return [value, clear];
}

/** A positive integer id from a URL parameter, or null. */
export const idParam = (text: string | null): number | null => {
  const n = Number(text);
  return text !== null && Number.isInteger(n) && n > 0 ? n : null;
};
