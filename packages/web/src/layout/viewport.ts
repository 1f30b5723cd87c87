import { breakpointOf, type Breakpoint } from '@se/core';
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  window.addEventListener('orientationchange', onChange);
  return () => {
    window.removeEventListener('resize', onChange);
    window.removeEventListener('orientationchange', onChange);
  };
}

// SPEC §2 measures the body, not the window (no scrollbar in the figure).
const snapshot = (): Breakpoint => breakpointOf(document.body.clientWidth || window.innerWidth);

/** The SPEC §2 layout breakpoint of the current body width; re-renders on resize. */
export function useBreakpoint(): Breakpoint {
  return useSyncExternalStore(subscribe, snapshot, () => 'lg');
}

/** SPEC §2: mobile means xs. */
export const useIsMobile = (): boolean => useBreakpoint() === 'xs';

/** SPEC §2: some elements appear only inside the WeChat in-app browser. */
export const isWeChat = (userAgent: string = navigator.userAgent): boolean =>
  /MicroMessenger/i.test(userAgent);
