import { lightRoute, renderLightPage } from './light-app.tsx';
import { PageProblem } from './navigation/PageFrame.tsx';
import { renderRoot } from './render-root.tsx';
import { routeByPath } from './routes.tsx';
import { hasStoredSession } from './session/storage.ts';
import { removeSplash } from './splash.ts';

// The sign-in and review pages opened directly start without the console (light-app.tsx);
// every other path starts the console, whose code is fetched from here.
const light = lightRoute(window.location.pathname);
if (light) renderLightPage(light);
else {
  // A returning user's console page: its code, the console shell's and its first list
  // request start now, beside the console's own code, not after it has loaded and run (the
  // page's chunk waited behind antd and the router, the shell behind the page, the data behind
  // both: issue 19, desktop LCP). A signed-out visitor goes to /login and fetches none of
  // them; the router and the guard join the same downloads.
  const route = routeByPath(window.location.pathname);
  if (route?.access === 'auth' && hasStoredSession()) {
    void route.screen.preload().catch(() => {});
    void import('./layout/AppLayout.tsx').catch(() => {});
    void import('./navigation/first-request.ts').then(
      (m) => m.startFirstRequest(window.location),
      () => {},
    );
  }
  void import('./console-app.tsx').then(
    (app) => app.bootConsole(),
    () => {
      removeSplash();
      renderRoot(<PageProblem text="页面加载失败，请检查网络后重新加载。" action="重新加载" />);
    },
  );
}
