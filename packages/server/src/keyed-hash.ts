import crypto from 'node:crypto';
import type { AppContext } from './context.ts';
import type { Db } from './db/index.ts';

/**
 * A keyed hash (HMAC-SHA256, 32 characters in `encoding`) under a secret kept in the
 * database: enough to count by, not enough to recover the value (an address, a name). The
 * secret is read once per database (`read`, from the area's repository); a failed read is
 * tried again next time.
 */
export function keyedHasher(read: (db: Db) => Promise<string>, encoding: 'hex' | 'base64url') {
  const secrets = new WeakMap<object, Promise<string>>();
  return async (ctx: AppContext, value: string) => {
    let secret = secrets.get(ctx.db);
    if (!secret) {
      secret = read(ctx.db);
      secrets.set(ctx.db, secret);
      secret.catch(() => secrets.delete(ctx.db));
    }
    return crypto
      .createHmac('sha256', await secret)
      .update(value)
      .digest(encoding)
      .slice(0, 32);
  };
}
