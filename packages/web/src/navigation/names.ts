import type { AppRoute } from '../routes.tsx';

/*
 * What pages need to know about navigation without importing the route table: the table
 * lazily imports every page, so a page importing it would close a cycle through all of them.
 */

export const APP_NAME = '智慧环境管理系统';
/** SPEC §2: unknown paths (and /, which the spec does not name) land here. */
export const DEFAULT_PATH = '/st-gateway';
/** SPEC §2: the remembered route name after a reset. */
export const DEFAULT_ROUTE_NAME = 'Toilets';
export const LOGIN_PATH = '/login';

export function pageTitle(title: string | undefined): string {
  return title ? `${title} - ${APP_NAME}` : APP_NAME;
}

const byName = new Map<string, AppRoute>();

/**
 * Called once by the route table (routes.tsx) as it loads. Every page is reached through
 * that table, so the index is complete before any page can look a route up.
 */
export function indexRoutes(routes: readonly AppRoute[]): void {
  byName.clear();
  for (const r of routes) byName.set(r.name, r);
}

export const routeByName = (name: string): AppRoute | undefined => byName.get(name);
