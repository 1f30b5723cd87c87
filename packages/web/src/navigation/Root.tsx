import { useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import type { AppRoute } from '../routes.tsx';
import { removeSplash } from '../splash.ts';
import { recordNavigation } from './nav-memory.ts';
import { PageProblem } from './PageFrame.tsx';
import { useScrollMemory } from './scroll-memory.ts';

/** The route a location resolved to, from the leaf match's handle. */
export function useCurrentRoute(): AppRoute | undefined {
  const matches = useMatches();
  return matches[matches.length - 1]?.handle as AppRoute | undefined;
}

/** The root view: navigation bookkeeping of SPEC §4 around the route outlet. */
export function Root() {
  const location = useLocation();
  const route = useCurrentRoute();
  const navigation = useNavigation();

  useEffect(() => {
    if (route) recordNavigation(route.name, location.search, location.state);
  }, [route, location]);

  useEffect(() => removeSplash(), []);

  useScrollMemory(route?.name);

  return (
    <>
      {navigation.state !== 'idle' && (
        <div className="nav-progress" role="progressbar" aria-label="页面加载中" />
      )}
      <Outlet />
    </>
  );
}

/** SPEC §8: router errors are swallowed; the user gets a way on instead of a blank page. */
export function RouteError() {
  useEffect(() => removeSplash(), []);
  return <PageProblem text="页面出现问题，请返回首页。" action="返回首页" />;
}
