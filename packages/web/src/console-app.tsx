import { App } from './App.tsx';
import { installAntdStyles } from './antd-static-styles.ts';
import { startFirstRequest } from './navigation/first-request.ts';
import { createAppRouter } from './navigation/router.tsx';
import { installSessionExpiry } from './navigation/session-expiry.ts';
import { renderRoot } from './render-root.tsx';

/** Starts the console (router, antd, every route) at the browser's current location. */
export function bootConsole(): void {
  installAntdStyles();
  const router = createAppRouter();
  installSessionExpiry(router);
  startFirstRequest(window.location);
  renderRoot(<App router={router} />);
}
