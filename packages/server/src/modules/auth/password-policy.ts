import { badRequest } from '../../errors.ts';
import { COMMON_PASSWORDS } from './common-passwords.ts';

/** What a password is checked against besides the list: the account's own identifiers. */
export interface PasswordOwner {
  user_name?: string | null;
  email?: string | null;
  phone_num?: string | null;
}

export const TOO_COMMON = '密码过于常见，请换一个更难猜的密码';
export const SAME_AS_ACCOUNT = '密码不能与用户名、邮箱或手机号相同';
export const TOO_SIMPLE = '密码过于简单（重复或连续的字符），请换一个更难猜的密码';

// Keyboard rows, both directions: a walk along one is as guessable as a sequence.
const ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const WALKS = [...ROWS, ...ROWS.map((r) => [...r].reverse().join(''))];

/** All one character, a short unit repeated, a run of consecutive codes or a keyboard row. */
function trivial(p: string): boolean {
  if (/^(.{1,4})\1+$/u.test(p)) return true;
  const cps = [...p].map((c) => c.codePointAt(0)!);
  const step = cps[1]! - cps[0]!;
  if (Math.abs(step) === 1 && cps.every((c, i) => i === 0 || c - cps[i - 1]! === step)) return true;
  return WALKS.some((w) => w.includes(p));
}

/**
 * The reason a password may not be used, or null. The length rule lives in core's schemas;
 * this is the part that needs the list, so it stays on the server.
 */
export function passwordProblem(password: string, owner: PasswordOwner = {}): string | null {
  const p = password.normalize('NFKC').toLowerCase();
  const same = [owner.user_name, owner.email, owner.email?.split('@')[0], owner.phone_num]
    .filter((s): s is string => !!s)
    .map((s) => s.normalize('NFKC').toLowerCase());
  if (same.includes(p)) return SAME_AS_ACCOUNT;
  if (COMMON_PASSWORDS.has(p)) return TOO_COMMON;
  if (trivial(p)) return TOO_SIMPLE;
  return null;
}

/** Refuses a password the policy rejects with a 400 the person can act on. */
export function assertPasswordAllowed(password: string, owner: PasswordOwner = {}) {
  const why = passwordProblem(password, owner);
  if (why) throw badRequest(why);
}
