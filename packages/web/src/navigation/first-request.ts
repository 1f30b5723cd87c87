import { DEFAULT_PAGE_SIZE } from '@se/core';
import { requestEarly } from '../api/client.ts';
import { listDevices } from '../api/devices.ts';
import { listToilets } from '../api/toilets.ts';
import { listUsers } from '../api/users.ts';
import { KIND_OF_ROUTE } from '../pages/devices/device-text.ts';
import { routeByPath } from '../routes.tsx';
import { hasStoredSession } from '../session/storage.ts';

const FIRST_PAGE = { page: 1, page_size: DEFAULT_PAGE_SIZE };

/**
 * The request a console page's list makes first when it is opened without a search (page 1,
 * default size, no filters), by route name. Only an identical call is answered early, so a
 * page whose first call differs just asks the server itself.
 */
const FIRST_REQUESTS: Partial<Record<string, () => Promise<unknown>>> = {
  Toilets: () => listToilets(FIRST_PAGE),
  Users: () => listUsers(FIRST_PAGE),
  ...Object.fromEntries(
    Object.entries(KIND_OF_ROUTE).map(([name, kind]) => [name, () => listDevices(kind, FIRST_PAGE)]),
  ),
};

/**
 * Starts the opened page's first list request with the console's boot, in parallel with its
 * code (issue 19: the list used to be asked for only after the shell and the page had rendered).
 * A signed-out visitor goes to /login and asks for nothing.
 */
export function startFirstRequest(location: Pick<Location, 'pathname' | 'search'>): void {
  if (location.search !== '' || !hasStoredSession()) return;
  const route = routeByPath(location.pathname);
  const first = route?.access === 'auth' ? FIRST_REQUESTS[route.name] : undefined;
  if (first) requestEarly(first);
}
