import { useEffect, type ComponentType } from 'react';
import type { Root } from 'react-dom/client';
import { pageTitle } from './navigation/names.ts';
import { PageFrame } from './navigation/PageFrame.tsx';
import { PageNavContext, type PageNav } from './navigation/page-nav.tsx';
import AddComment from './pages/public/AddComment.tsx';
import Login from './pages/auth/Login.tsx';
import { renderRoot } from './render-root.tsx';
import { routeByPath, type AppRoute } from './routes.tsx';
import { removeSplash } from './splash.ts';

/**
 * The pages a visitor most often opens first, on a phone: the sign-in page and the review
 * page a toilet's QR code leads to. Opened directly they render without the router and antd
 * (about a third of the console's first JavaScript), and the console starts in place when the
 * visitor moves on. Their screens use neither: plain markup, PageNav, PageLink.
 */
// Imported here, not only lazily through the route table, so that index.html preloads them and
// their code with the entry: one round trip less before the first screen.
const LIGHT_PAGES: Partial<Record<string, ComponentType>> = { Login, AddComment };

/** The light page for a path, if the app was opened on one. */
export function lightRoute(path: string): AppRoute | undefined {
  const route = routeByPath(path);
  return route && LIGHT_PAGES[route.name] ? route : undefined;
}

const loadConsole = () => import('./console-app.tsx');

let root: Root | null = null;

/** Leaves the light page for `to` inside the console, started in this document. */
async function enterConsole(to: string, replace = false): Promise<void> {
  let app: Awaited<ReturnType<typeof loadConsole>>;
  try {
    app = await loadConsole();
  } catch {
    // The console's code did not arrive (a deploy in between, the network): a full page load.
    return replace ? window.location.replace(to) : window.location.assign(to);
  }
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  root?.unmount();
  app.bootConsole();
}

function LightPage({ route }: { route: AppRoute }) {
  useEffect(() => removeSplash(), []);
  const nav: PageNav = {
    search: window.location.search,
    state: null,
    go: (to, options) => void enterConsole(to, options?.replace),
  };
  return (
    <PageNavContext value={nav}>
      <div className="public-page">
        <PageFrame route={route} page={LIGHT_PAGES[route.name]} />
      </div>
    </PageNavContext>
  );
}

export function renderLightPage(route: AppRoute): void {
  document.title = pageTitle(route.title);
  root = renderRoot(<LightPage route={route} />);
  if (route.name === 'Login') {
    // The step after signing in should be quick: the console's code is fetched as soon as the
    // visitor starts on the form (not before, so the page's first seconds stay quiet).
    const warm = () => void loadConsole().catch(() => {});
    document.addEventListener('focusin', warm, { once: true });
    document.addEventListener('pointerdown', warm, { once: true });
  }
}
