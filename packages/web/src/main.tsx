import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { createAppRouter } from './navigation/router.tsx';
import { installSessionExpiry } from './navigation/session-expiry.ts';

const router = createAppRouter();
installSessionExpiry(router);

const root = createRoot(document.getElementById('root')!, {
  // SPEC §8: the global error handler swallows errors; pages show their own error states.
  onUncaughtError: (error) => {
    if (import.meta.env.DEV) console.error(error);
  },
});
// The first render as a transition: React yields to the browser every few milliseconds
// instead of building the whole page in one long task (Lighthouse total blocking time).
startTransition(() =>
  root.render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  ),
);
