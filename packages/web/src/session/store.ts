import { create } from 'zustand';
import { readCachedUser, readUserName, storeCachedUser } from './storage.ts';

/** SPEC §3: the label shown for a cleared session. */
export const ANONYMOUS = '匿名';

export interface SessionUser {
  userName: string;
  permission: number;
  userID: number;
  /**
   * Whether a 127 permission is a backend manager rather than an OEM (get-permission's
   * backend_manager); absent reads as OEM, the weaker of the two.
   */
  backendManager?: boolean;
}

export interface SessionState extends Required<SessionUser> {
  isLogin: boolean;
  signIn(user: SessionUser): void;
  reset(): void;
}

const anonymous: Required<SessionUser> & { isLogin: boolean } = {
  userName: ANONYMOUS,
  permission: 0,
  userID: 0,
  backendManager: false,
  isLogin: false,
};

/**
 * A stored session starts signed in with what get-permission answered last time, so the
 * console paints at once (and never shows 匿名 to a signed-in user); the guard re-checks in
 * the background and corrects it (issue 19).
 */
export function sessionFromStorage(): Required<SessionUser> & { isLogin: boolean } {
  const cached = readCachedUser();
  return cached ? { ...cached, userName: readUserName(), isLogin: true } : anonymous;
}

export const useSession = create<SessionState>()((set) => ({
  ...sessionFromStorage(),
  signIn: (user) => {
    const backendManager = user.backendManager ?? false;
    storeCachedUser({ permission: user.permission, userID: user.userID, backendManager });
    set({ ...user, backendManager, isLogin: true });
  },
  reset: () => set(anonymous),
}));
