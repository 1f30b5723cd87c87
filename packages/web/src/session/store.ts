import { create } from 'zustand';

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

export const useSession = create<SessionState>()((set) => ({
  ...anonymous,
  signIn: (user) => set({ ...user, backendManager: user.backendManager ?? false, isLogin: true }),
  reset: () => set(anonymous),
}));
