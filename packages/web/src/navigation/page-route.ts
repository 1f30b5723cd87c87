import { createContext, useContext } from 'react';
import type { AppRoute } from './names.ts';

/**
 * The route a page was opened for. A kept-alive page stays mounted while other routes
 * are shown, so it must not read "the current route" from the router to learn its own.
 */
export const PageRouteContext = createContext<AppRoute | null>(null);

export function usePageRoute(): AppRoute {
  const route = useContext(PageRouteContext);
  if (!route) throw new Error('usePageRoute() outside a routed page');
  return route;
}
