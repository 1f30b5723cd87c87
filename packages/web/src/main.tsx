import { lightRoute, renderLightPage } from './light-app.tsx';
import { PageProblem } from './navigation/PageFrame.tsx';
import { renderRoot } from './render-root.tsx';
import { routeByPath } from './routes.tsx';
import { hasStoredSession } from './session/storage.ts';
import { removeSplash } from './splash.ts';

/**
 * A returning user's console page: its chunk starts downloading with the console's code
 * instead of after it (the guard would only ask for it once the console has booted). A
 * signed-out visitor is sent to /login by the guard, so nothing is fetched for them.
 */
function preloadOpenedPage(): void {
  const route = routeByPath(window.location.pathname);
  if (route?.access === 'auth' && hasStoredSession()) void route.screen.preload().catch(() => {});
}

// The sign-in and review pages opened directly start without the console (light-app.tsx);
// every other path starts the console, whose code is fetched from here.
const light = lightRoute(window.location.pathname);
if (light) renderLightPage(light);
else {
  preloadOpenedPage();
  void import('./console-app.tsx').then(
    (app) => app.bootConsole(),
    () => {
      removeSplash();
      renderRoot(<PageProblem text="页面加载失败，请检查网络后重新加载。" action="重新加载" />);
    },
  );
}
