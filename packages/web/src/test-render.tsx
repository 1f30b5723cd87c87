import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { UiProvider } from './App.tsx';

/** A query client for one test: a failed query fails at once (no retries). */
export const testQueryClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

/** `ui` inside the app's providers (queries and antd's Chinese locale), as the shell mounts a page. */
export function withProviders(ui: ReactNode, client: QueryClient = testQueryClient()) {
  return (
    <QueryClientProvider client={client}>
      <UiProvider>{ui}</UiProvider>
    </QueryClientProvider>
  );
}

/**
 * Renders `ui` inside the app's providers, in a MemoryRouter when `router` is set (a page that
 * links or reads the URL); gives the render result and the query client.
 */
export function renderWithProviders(ui: ReactNode, o: { router?: boolean; client?: QueryClient } = {}) {
  const client = o.client ?? testQueryClient();
  const result = render(withProviders(o.router ? <MemoryRouter>{ui}</MemoryRouter> : ui, client));
  return { ...result, client };
}
