import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

/** A lazily loaded page. Routes that share one screen in SPEC §2 share one Screen. */
export interface Screen {
  /** Identifies the screen; routes with the same key render the same page component. */
  key: string;
  Page: LazyExoticComponent<ComponentType>;
  /** Starts (or joins) the chunk download, so the guard can fetch it while it checks the session. */
  preload(): Promise<unknown>;
}

export function lazyWithPreload(load: Loader): Pick<Screen, 'Page' | 'preload'> {
  let pending: Promise<{ default: ComponentType }> | undefined;
  const once = () => {
    // A failed download (deploy in between, flaky network) may be retried later.
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
  return { Page: lazy(once), preload: once };
}

export function defineScreen(key: string, load: Loader): Screen {
  return { key, ...lazyWithPreload(load) };
}
