import crypto from 'node:crypto';
import { DOWNLOAD_API, DOWNLOAD_LINK_MS } from '@se/core';
import type { AppContext } from '../../context.ts';
import * as repo from './repo.ts';

const keys = new WeakMap<AppContext, Promise<Buffer>>();

/**
 * The HMAC key of download links, kept in the database so every server copy signs and
 * checks with the same one (a link issued by one copy is served by another).
 */
function keyOf(ctx: AppContext): Promise<Buffer> {
  let k = keys.get(ctx);
  if (!k) {
    k = repo
      .secret(ctx.db, 'download_link_hmac', crypto.randomBytes(32).toString('base64url'))
      .then((v) => Buffer.from(v, 'base64url'));
    k.catch(() => keys.delete(ctx));
    keys.set(ctx, k);
  }
  return k;
}

const mac = (key: Buffer, id: number, userId: number, expires: number) =>
  crypto.createHmac('sha256', key).update(`download:${id}:${userId}:${expires}`).digest('base64url');

/** A link to job `id`'s file that works without a session until it expires. */
export async function signLink(ctx: AppContext, id: number, userId: number, now = Date.now()) {
  const expires = now + DOWNLOAD_LINK_MS;
  const sig = mac(await keyOf(ctx), id, userId, expires);
  return { url: `${DOWNLOAD_API.file}?id=${id}&expires=${expires}&sig=${sig}`, expires_at: expires };
}

/** Checks a link's signature (constant time) and then its expiry. */
export async function checkLink(
  ctx: AppContext,
  id: number,
  userId: number,
  expires: number,
  sig: string,
  now = Date.now(),
): Promise<'ok' | 'invalid' | 'expired'> {
  const want = Buffer.from(mac(await keyOf(ctx), id, userId, expires));
  const got = Buffer.from(sig);
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) return 'invalid';
  return expires < now ? 'expired' : 'ok';
}
