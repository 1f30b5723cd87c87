import { expect } from 'vitest';
import { ANONYMOUS, useSession } from './store.ts';

interface Expected {
  /** The stored token; null: signed out (nothing stored, the store anonymous). */
  token: string | null;
  userName: string;
  permission: number;
  userID: number;
}

/** For tests: what localStorage holds of the session, and what the store says, are `s`. */
export function expectSession(s: Expected) {
  const signedIn = s.token !== null;
  expect(localStorage.getItem('token')).toBe(s.token);
  expect(localStorage.getItem('user_name')).toBe(signedIn ? s.userName : null);
  expect(useSession.getState()).toMatchObject({
    userName: s.userName,
    permission: s.permission,
    isLogin: signedIn,
    userID: s.userID,
  });
}

/** For tests: the session is cleared, in storage and in the store. */
export const expectSignedOut = () =>
  expectSession({ token: null, userName: ANONYMOUS, permission: 0, userID: 0 });
