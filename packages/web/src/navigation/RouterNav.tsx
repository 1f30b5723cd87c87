import { useMemo, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageNavContext, type PageNav } from './page-nav.tsx';

/** PageNav for pages rendered by the router: its location, and navigation within the app. */
export function RouterNav({ children }: { children: ReactNode }) {
  const { search, state } = useLocation();
  const navigate = useNavigate();
  const nav = useMemo<PageNav>(
    () => ({
      search,
      state,
      // SPEC §8: router errors are swallowed.
      go: (to, options) => void Promise.resolve(navigate(to, options)).catch(() => {}),
    }),
    [search, state, navigate],
  );
  return <PageNavContext value={nav}>{children}</PageNavContext>;
}
