/** SPEC §1 / §9: the splash is removed 200 ms after its creation. */
export const SPLASH_MS = 200;
export const SPLASH_ID = 'app-splash';

/**
 * Removes the splash once the app has mounted, but not before it has existed for
 * SPLASH_MS. It comes from index.html, so it was created when the document arrived;
 * the navigation timing entry says when that was without needing an inline script
 * (the server's CSP allows none).
 */
export function removeSplash(doc: Document = document, now: number = performance.now()): void {
  const splash = doc.getElementById(SPLASH_ID);
  if (!splash || splash.dataset.leaving) return;
  splash.dataset.leaving = '1';
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  const createdAt = nav?.responseEnd ?? 0;
  window.setTimeout(() => splash.remove(), Math.max(0, createdAt + SPLASH_MS - now));
}
