import type { AreaName, Need } from '@se/core';
import type { Screen } from './screen.ts';

/*
 * What pages need to know about navigation without importing the route table: the table
 * lazily imports every page, so a page importing it would close a cycle through all of them.
 */

/** One entry of the route table (routes.tsx). */
export interface AppRoute {
  path: string;
  /** PascalCase name; the navigation history and the remembered route use it. */
  name: string;
  /** Chinese page title; the document title is `${title} - 智慧环境管理系统`. */
  title: string;
  access: 'public' | 'auth';
  /** SPEC §2 "kept alive": the page keeps its state while another route is shown. */
  keepAlive: boolean;
  /** Functional area: the menu group and the permission bits (null for public pages). */
  area: AreaName | null;
  /** What the user's permission number must allow: bits, or being a manager (0 for public pages). */
  permission: Need;
  screen: Screen;
}

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
