import { App } from './App.tsx';
import { installAntdStyles } from './antd-static-styles.ts';
import { createAppRouter } from './navigation/router.tsx';
import { installSessionExpiry } from './navigation/session-expiry.ts';
import { renderRoot } from './render-root.tsx';

/** Starts the console (router, antd, every route) at the browser's current location. */
export function bootConsole(): void {
  installAntdStyles();
  const router = createAppRouter();
  installSessionExpiry(router);
  renderRoot(<App router={router} />);
}
