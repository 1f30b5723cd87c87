import type { LoginData } from '@se/core';
import { clearStoredSession, readHomePath, storeSession } from './storage.ts';
import { useSession } from './store.ts';

/** SPEC §4 login: store token and user name, then fill the session from the response. */
export function completeLogin(data: LoginData): void {
  storeSession(data.auth_token, data.user_name);
  useSession
    .getState()
    .signIn({ userName: data.user_name, permission: data.permission, userID: data.user_id });
}

/** SPEC §4: delete stored token and user name and return to the anonymous session. */
export function clearSession(): void {
  clearStoredSession();
  useSession.getState().reset();
}

/**
 * A `redirect` value is only followed when it is a path on this site: a link such as
 * /login?redirect=https://evil.example must not turn the login page into a relay.
 */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value === '/login' || value.startsWith('/login?')) return null;
  return value;
}

/** Where to go after signing in: the `redirect` query, else OdHomePagePath, else / (SPEC §2). */
export function loginTarget(search: string): string {
  const redirect = safeRedirect(new URLSearchParams(search).get('redirect'));
  return redirect ?? safeRedirect(readHomePath()) ?? '/';
}
