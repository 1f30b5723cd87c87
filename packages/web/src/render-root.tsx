import { StrictMode, startTransition, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

/** The app's React root in #root: the console's and the light pages' (light-app.tsx). */
export function renderRoot(node: ReactNode): Root {
  const root = createRoot(document.getElementById('root')!, {
    // SPEC §8: the global error handler swallows errors; pages show their own error states.
    onUncaughtError: (error) => {
      if (import.meta.env.DEV) console.error(error);
    },
  });
  // The first render as a transition: React yields to the browser every few milliseconds
  // instead of building the whole page in one long task (Lighthouse total blocking time).
  startTransition(() => root.render(<StrictMode>{node}</StrictMode>));
  return root;
}
