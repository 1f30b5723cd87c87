import { useEffect, useState } from 'react';
import type { SiteInfo } from '@se/core';
import { getSite } from '../api/site.ts';

let pending: Promise<SiteInfo | null> | undefined;

/** Site name, version and filing record: asked once per visit (a failure is asked again later). */
export function loadSiteInfo(): Promise<SiteInfo | null> {
  pending ??= getSite().then(
    (res) => (res.code === 200 ? res.data : null),
    () => {
      pending = undefined;
      return null;
    },
  );
  return pending;
}

// Public pages use this too, so it does without the query library the console uses.
export function useSiteInfo(): { site: SiteInfo | null; loading: boolean } {
  const [state, setState] = useState<{ site: SiteInfo | null; loading: boolean }>({
    site: null,
    loading: true,
  });
  useEffect(() => {
    let live = true;
    void loadSiteInfo().then((site) => {
      if (live) setState({ site, loading: false });
    });
    return () => {
      live = false;
    };
  }, []);
  return state;
}
