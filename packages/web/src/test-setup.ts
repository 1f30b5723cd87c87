import { afterAll, afterEach, beforeEach, vi } from 'vitest';

// Files share a worker and its window (isolate: false, see vitest.config.ts). Each still
// starts as if alone: its own copy of every module, empty storage, the page at /, no
// title, nothing left in the body by the file before (afterAll below).
vi.resetModules();
localStorage.clear();
sessionStorage.clear();
window.history.replaceState(null, '', '/');
document.title = '';

// antd's responsive helpers call matchMedia, which jsdom does not implement.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

// antd's layout and menu measure themselves; jsdom has no layout, so nothing is observed.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

// jsdom logs "not implemented" for these; the scroll memory calls them on every navigation.
window.scrollTo = (() => {}) as typeof window.scrollTo;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(async () => {
  (await import('@testing-library/react')).cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

afterAll(async () => {
  (await import('antd/es/notification')).default.destroy();
  (await import('antd/es/message')).default.destroy();
  (await import('antd/es/modal')).default.destroyAll();
  vi.useRealTimers();
  document.body.innerHTML = '';
});
