import { create } from 'zustand';

/** SPEC §3: the label shown for a cleared session. */
export const ANONYMOUS = '匿名';

export interface SessionUser {
  userName: string;
  permission: number;
  userID: number;
}

export interface SessionState extends SessionUser {
  isLogin: boolean;
  signIn(user: SessionUser): void;
  reset(): void;
}

const anonymous: SessionUser & { isLogin: boolean } = {
  userName: ANONYMOUS,
  permission: 0,
  userID: 0,
  isLogin: false,
};

export const useSession = create<SessionState>()((set) => ({
  ...anonymous,
  signIn: (user) => set({ ...user, isLogin: true }),
  reset: () => set(anonymous),
}));
