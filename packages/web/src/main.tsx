import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { createAppRouter } from './navigation/router.tsx';
import { installSessionExpiry } from './navigation/session-expiry.ts';

const router = createAppRouter();
installSessionExpiry(router);

createRoot(document.getElementById('root')!, {
  // SPEC §8: the global error handler swallows errors; pages show their own error states.
  onUncaughtError: (error) => {
    if (import.meta.env.DEV) console.error(error);
  },
}).render(
  <StrictMode>
    <App router={router} />
  </StrictMode>,
);
