import { ConfigProvider } from 'antd';
import { Suspense } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { ROUTES, type AppRoute } from '../routes.tsx';
import { DEFAULT_PATH } from './names.ts';
import { guardLoader } from './guard.ts';
import { PageFrame, PageSpinner } from './PageFrame.tsx';
import { Root, RouteError } from './Root.tsx';
import { RouterNav } from './RouterNav.tsx';
import { lazyWithPreload } from './screen.ts';

// The console shell is lazy too: the login page must not pay for the menu and dialogs.
const shell = lazyWithPreload(() => import('../layout/AppLayout.tsx'));

/**
 * The public pages' blue is antd's next shade: white on antd's default primary (#1677ff) is
 * 4.1:1, under the 4.5:1 the sign-in and review pages keep for their visitors (Lighthouse
 * accessibility ≥ 95, issue 19). The console keeps its theme.
 */
const PUBLIC_THEME = { token: { colorPrimary: '#0958d9', colorLink: '#0958d9' } };

function PublicPage({ route }: { route: AppRoute }) {
  return (
    <ConfigProvider theme={PUBLIC_THEME}>
      <RouterNav>
        <div className="public-page">
          <PageFrame route={route} />
        </div>
      </RouterNav>
    </ConfigProvider>
  );
}

/** Route objects for React Router, generated from the route table. */
export function buildRouteObjects(): RouteObject[] {
  const toDefault = () => redirect(DEFAULT_PATH);
  return [
    {
      path: '/',
      element: <Root />,
      errorElement: <RouteError />,
      // The splash from index.html covers the first guard run.
      HydrateFallback: () => null,
      children: [
        // `element: null` on element-less routes says "nothing of its own" to React Router,
        // which otherwise warns that the route renders an empty outlet.
        { index: true, loader: toDefault, element: null },
        ...ROUTES.filter((r) => r.access === 'public').map((route): RouteObject => ({
          path: route.path,
          handle: route,
          loader: guardLoader(route),
          element: <PublicPage route={route} />,
        })),
        {
          id: 'console',
          element: (
            <Suspense fallback={<PageSpinner />}>
              <shell.Page />
            </Suspense>
          ),
          // The shell renders the pages itself (keep-alive), so these have no element.
          children: ROUTES.filter((r) => r.access === 'auth').map((route): RouteObject => ({
            path: route.path,
            handle: route,
            loader: guardLoader(route, shell.preload),
            element: null,
          })),
        },
        // SPEC §2: the first matching wildcard redirects to /st-gateway.
        { path: '*', loader: toDefault, element: null },
      ],
    },
  ];
}

export const createAppRouter = () => createBrowserRouter(buildRouteObjects());
export type AppRouter = ReturnType<typeof createAppRouter>;
