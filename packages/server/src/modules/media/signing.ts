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
import { linkSigner, type LinkCheck } from '../../keyed-hash.ts';
import { secret } from '../downloads/repo.ts';

export type MediaVariant = 'file' | 'thumb';

/** How long a console preview link lives. */
export const PREVIEW_LINK_MS = 6 * 60 * 60_000;

const links = linkSigner((db) => secret(db, 'media_link_hmac', crypto.randomBytes(32).toString('base64url')));
const value = (id: number, variant: MediaVariant, expires: number) => `media:${id}:${variant}:${expires}`;
const signed = (ctx: AppContext, id: number, variant: MediaVariant, expires: number) =>
  links.sign(ctx, value(id, variant, expires));

/**
 * A path (no origin) to item `id`'s file or thumbnail valid for `ttlMs`. Expiry is rounded up
 * to the quarter hour so links of one page stay the same between refreshes (browser cache).
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
  const url = variant === 'file' ? MEDIA_API.file : MEDIA_API.thumb;
  return `${url}?id=${id}&expires=${expires}&sig=${await signed(ctx, id, variant, expires)}`;
}

/** Checks a link's signature (constant time), then its expiry. */
export async function checkMediaLink(
  ctx: AppContext,
  id: number,
  variant: MediaVariant,
  expires: number,
  sig: string,
  now = Date.now(),
): Promise<LinkCheck> {
  return links.check(ctx, value(id, variant, expires), sig, expires, now);
}
