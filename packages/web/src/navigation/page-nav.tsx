import { createContext, use, type MouseEvent, type ReactNode } from 'react';

/**
 * Where a page is and how it moves on, without React Router: the sign-in and review pages
 * are also rendered outside the router (light-app.tsx), so that their first screen does not
 * download the router and antd. Inside the console the router provides it (RouterNav.tsx).
 */
export interface PageNav {
  /** The query string of the current location, with its `?`. */
  search: string;
  /** The state the previous page handed over (React Router's location state). */
  state: unknown;
  go(to: string, options?: { replace?: boolean }): void;
}

export const PageNavContext = createContext<PageNav | null>(null);

/** Without a provider: the browser's own location, and a full page load to move on. */
function browserNav(): PageNav {
  return {
    search: window.location.search,
    state: (window.history.state as { usr?: unknown } | null)?.usr ?? null,
    go: (to, options) => (options?.replace ? window.location.replace(to) : window.location.assign(to)),
  };
}

export function usePageNav(): PageNav {
  return use(PageNavContext) ?? browserNav();
}

/** A link that moves on through the page's PageNav (a plain click), else as the browser does. */
export function PageLink({ to, children }: { to: string; children: ReactNode }) {
  const { go } = usePageNav();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // New tab, new window, download: the browser's business.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    go(to);
  };
  return (
    <a href={to} onClick={onClick}>
      {children}
    </a>
  );
}
