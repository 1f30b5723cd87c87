import { CODE, SESSION_CODES } from '@se/core';
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { getPermission } from '../api/auth.ts';
import type { AppRoute } from '../routes.tsx';
import { LOGIN_PATH, pageTitle } from './names.ts';
import { hasStoredSession, readUserName } from '../session/storage.ts';
import { useSession } from '../session/store.ts';

/** The login URL that brings the user back to `target` afterwards (SPEC §4). */
export function loginRedirect(target: string): string {
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(target)}`;
}

const mayBeSignedIn = () => useSession.getState().isLogin || hasStoredSession();

/**
 * SPEC §4 for a protected route. Signed in (store flag, or token and user name stored):
 * refresh user name, permission and id from get-permission, and let the user through
 * even when that call fails for another reason; a session code means signed out.
 */
export async function checkSession(signal?: AbortSignal): Promise<boolean> {
  if (!mayBeSignedIn()) return false;
  try {
    const res = await getPermission({ signal, redirectOnExpiry: false });
    if (res.code === CODE.ok) {
      useSession.getState().signIn({
        userName: readUserName(),
        permission: res.data.permission,
        userID: res.data.id,
        backendManager: res.data.backend_manager,
      });
    } else if (SESSION_CODES.includes(res.code)) {
      return false;
    }
  } catch {
    // SPEC §4: on failure proceed without the updates; the server still checks every call.
  }
  return true;
}

let rechecking: Promise<void> | null = null;

/**
 * A signed-in session is re-checked after the page has painted: the answer refreshes the
 * permission (the route re-renders as 无权访问 if it no longer allows the page) and a session
 * code sends the user to /login through the client's expiry handler.
 */
export function recheckSession(): Promise<void> {
  rechecking ??= getPermission()
    .then((res) => {
      if (res.code === CODE.ok) {
        useSession.getState().signIn({
          userName: readUserName(),
          permission: res.data.permission,
          userID: res.data.id,
          backendManager: res.data.backend_manager,
        });
      }
    })
    .catch(() => {})
    .finally(() => {
      rechecking = null;
    });
  return rechecking;
}

/**
 * The guard as a route loader: it runs before the route renders, so the title is set and
 * a signed-out user is redirected before any protected screen mounts. The page's chunk
 * downloads during the session check, so the screen appears in one step.
 */
export function guardLoader(route: AppRoute, extraChunks: () => Promise<unknown> = async () => {}) {
  return async ({ request }: LoaderFunctionArgs): Promise<Response | null> => {
    document.title = pageTitle(route.title);
    const toLogin = () => {
      const url = new URL(request.url);
      return redirect(loginRedirect(url.pathname + url.search));
    };
    // Checked first so that a signed-out visitor does not download the console's chunks.
    if (route.access === 'auth' && !mayBeSignedIn()) throw toLogin();
    // A failed chunk download is shown by the page's error boundary when it renders.
    const chunks = Promise.all([route.screen.preload(), extraChunks()]).catch(() => {});
    if (route.access === 'auth') {
      // Known permission (this tab, or cached from the last check): paint now, check after.
      if (useSession.getState().isLogin) void recheckSession();
      else if (!(await checkSession(request.signal))) throw toLogin();
    }
    await chunks;
    return null;
  };
}
