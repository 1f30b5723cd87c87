import { create } from 'zustand';
import { DEFAULT_ROUTE_NAME } from './names.ts';

/** SPEC §2/§4: the route remembered for every route except /login. */
export interface StoredRoute {
  name: string;
  query: Record<string, string>;
  /** React Router's navigation state plays the part of named-route params. */
  params: Record<string, unknown>;
}

interface NavMemory {
  /** Route names visited, without consecutive repeats. */
  history: string[];
  lastRoute: StoredRoute;
}

export const DEFAULT_STORED_ROUTE: StoredRoute = { name: DEFAULT_ROUTE_NAME, query: {}, params: {} };

// A long session must not grow this without bound; back navigation only needs the tail.
const HISTORY_LIMIT = 50;

const STORAGE_KEY = 'se.nav';

// Per tab, like the browser's own history: a reload keeps it, a new tab starts fresh.
function restore(): NavMemory {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<NavMemory> | null;
    if (
      saved &&
      Array.isArray(saved.history) &&
      saved.lastRoute &&
      typeof saved.lastRoute.name === 'string'
    ) {
      return { history: saved.history.filter((h) => typeof h === 'string'), lastRoute: saved.lastRoute };
    }
  } catch {
    // Unreadable or unavailable storage: start fresh.
  }
  return { history: [], lastRoute: DEFAULT_STORED_ROUTE };
}

export const useNavMemory = create<NavMemory>()(restore);

useNavMemory.subscribe((memory) => {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(memory));
  } catch {
    // Quota or disabled storage: the memory still works for this page load.
  }
});

const isParams = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;

/** SPEC §4 "before each navigation": history entry and remembered route. */
export function recordNavigation(name: string, search: string, state: unknown): void {
  useNavMemory.setState((memory) => {
    const history =
      memory.history[memory.history.length - 1] === name
        ? memory.history
        : [...memory.history, name].slice(-HISTORY_LIMIT);
    if (name === 'Login') return { history };
    const lastRoute: StoredRoute = {
      name,
      query: Object.fromEntries(new URLSearchParams(search)),
      params: isParams(state) ? state : memory.lastRoute.params,
    };
    return { history, lastRoute };
  });
}

/**
 * SPEC §2 back navigation: the previous named route in the history, or null when there
 * is none (the caller then goes to /). The current entry is dropped so that repeated
 * backs walk further back instead of bouncing between two routes.
 */
export function popPreviousRoute(): string | null {
  const { history } = useNavMemory.getState();
  const previous = history[history.length - 2];
  if (previous === undefined) return null;
  useNavMemory.setState({ history: history.slice(0, -1) });
  return previous;
}

/** After sign-out the next user starts from the default route. */
export function resetNavMemory(): void {
  useNavMemory.setState({ history: [], lastRoute: DEFAULT_STORED_ROUTE });
}
