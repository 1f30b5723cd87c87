import { logout as logoutCall } from '../api/auth.ts';
import { resetNavMemory } from '../navigation/nav-memory.ts';
import { clearSession } from './session.ts';

/**
 * SPEC §4 logout: tell the server (so the token is revoked), then forget the session
 * whatever it answered; a user who asked to leave is signed out on this device.
 */
export async function signOut(): Promise<void> {
  try {
    await logoutCall();
  } catch {
    // Offline or timed out: the token expires on its own.
  }
  forgetSession();
}

/** Forgets the session on this device only: for when the server has already ended it. */
export function forgetSession(): void {
  clearSession();
  resetNavMemory();
}
