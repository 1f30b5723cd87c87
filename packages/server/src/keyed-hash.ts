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
  const secretOf = cachedSecret(read);
  return async (ctx: AppContext, value: string) => hmac(await secretOf(ctx), value, encoding);
}

/** The secret `read` gives, read once per database (a failed read is tried again next time). */
function cachedSecret(read: (db: Db) => Promise<string>) {
  const secrets = new WeakMap<object, Promise<string>>();
  return (ctx: AppContext) => {
    let secret = secrets.get(ctx.db);
    if (!secret) {
      secret = read(ctx.db);
      secrets.set(ctx.db, secret);
      secret.catch(() => secrets.delete(ctx.db));
    }
    return secret;
  };
}

const hmac = (secret: string, value: string, encoding: 'hex' | 'base64url') =>
  crypto.createHmac('sha256', secret).update(value).digest(encoding).slice(0, 32);

/** What checking a signed link found. */
export type LinkCheck = 'ok' | 'invalid' | 'expired';

/**
 * Signed links (download files, media previews, player manifests): a browser's <img>, a
 * download or a player sends no session header, so the link's HMAC is the credential. The
 * secret is the database's (`read`), so every server copy signs and checks the same links.
 * `check` compares in constant time, then looks at the expiry (same unit as `now`).
 */
export function linkSigner(read: (db: Db) => Promise<string>) {
  const secretOf = cachedSecret(read);
  /** One secret read, then plain HMACs (a manifest fan-out signs thousands of links). */
  const signer = async (ctx: AppContext) => {
    const secret = await secretOf(ctx);
    return (value: string) => hmac(secret, value, 'base64url');
  };
  return {
    signer,
    sign: async (ctx: AppContext, value: string) => (await signer(ctx))(value),
    async check(
      ctx: AppContext,
      value: string,
      sig: string,
      expires: number,
      now: number,
    ): Promise<LinkCheck> {
      const want = Buffer.from((await signer(ctx))(value));
      const got = Buffer.from(sig);
      if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) return 'invalid';
      return expires < now ? 'expired' : 'ok';
    },
  };
}
