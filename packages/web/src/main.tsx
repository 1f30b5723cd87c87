import { lightRoute, renderLightPage } from './light-app.tsx';
import { PageProblem } from './navigation/PageFrame.tsx';
import { renderRoot } from './render-root.tsx';
import { removeSplash } from './splash.ts';

// The sign-in and review pages opened directly start without the console (light-app.tsx);
// every other path starts the console, whose code is fetched from here.
const light = lightRoute(window.location.pathname);
if (light) renderLightPage(light);
else
  void import('./console-app.tsx').then(
    (app) => app.bootConsole(),
    () => {
      removeSplash();
      renderRoot(<PageProblem text="页面加载失败，请检查网络后重新加载。" action="重新加载" />);
    },
  );
