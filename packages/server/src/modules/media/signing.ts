/**
 * Signed links to stored media. A browser's <img>/<video> (and a player fetching its
 * manifest's files) sends no session header, so the list answers carry links whose HMAC
 * signature is the credential: for one item, one variant (the file, or its thumbnail /
 * poster), until it expires. The key is kept in the database (server_secrets) so every
 * server copy checks the same links.
 */
import crypto from 'node:crypto';
import { MEDIA_API } from '@se/core';
import type { AppContext } from '../../context.ts';
import { secret } from '../downloads/repo.ts';

export type MediaVariant = 'file' | 'thumb';

/** How long a console preview link lives. */
export const PREVIEW_LINK_MS = 6 * 60 * 60_000;

const keys = new WeakMap<AppContext, Promise<Buffer>>();

function keyOf(ctx: AppContext): Promise<Buffer> {
  let k = keys.get(ctx);
  if (!k) {
    k = secret(ctx.db, 'media_link_hmac', crypto.randomBytes(32).toString('base64url')).then((v) =>
      Buffer.from(v, 'base64url'),
    );
    k.catch(() => keys.delete(ctx));
    keys.set(ctx, k);
  }
  return k;
}

const mac = (key: Buffer, id: number, variant: MediaVariant, expires: number) =>
  crypto.createHmac('sha256', key).update(`media:${id}:${variant}:${expires}`).digest('base64url');

/**
 * A path (no origin) to item `id`'s file or thumbnail valid for `ttlMs`. Expiry is rounded up
 * to the hour's quarter so links of one page stay the same between refreshes (browser cache).
 */
export async function signMediaPath(
  ctx: AppContext,
  id: number,
  variant: MediaVariant,
  ttlMs = PREVIEW_LINK_MS,
  now = Date.now(),
) {
  const q = 15 * 60_000;
  const expires = Math.ceil((now + ttlMs) / q) * q;
  const sig = mac(await keyOf(ctx), id, variant, expires);
  const url = variant === 'file' ? MEDIA_API.file : MEDIA_API.thumb;
  return `${url}?id=${id}&expires=${expires}&sig=${sig}`;
}

/** Checks a link's signature (constant time), then its expiry. */
export async function checkMediaLink(
  ctx: AppContext,
  id: number,
  variant: MediaVariant,
  expires: number,
  sig: string,
  now = Date.now(),
): Promise<'ok' | 'invalid' | 'expired'> {
  const want = Buffer.from(mac(await keyOf(ctx), id, variant, expires));
  const got = Buffer.from(sig);
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) return 'invalid';
  return expires < now ? 'expired' : 'ok';
}
