import { QueryClient } from '@tanstack/react-query';

/**
 * The console's query cache. Its provider sits in the console shell, not at the root:
 * the sign-in pages do not use it and should not download it.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    // Session codes are handled by the API client; a retry would only repeat the redirect.
    queries: { retry: false, refetchOnWindowFocus: false },
  },
});
