import crypto from 'node:crypto';
import { DOWNLOAD_API, DOWNLOAD_LINK_MS } from '@se/core';
import type { AppContext } from '../../context.ts';
import { linkSigner, type LinkCheck } from '../../keyed-hash.ts';
import * as repo from './repo.ts';

/**
 * Download links are signed under a secret kept in the database, so every server copy signs
 * and checks with the same one (a link issued by one copy is served by another).
 */
const links = linkSigner((db) =>
  repo.secret(db, 'download_link_hmac', crypto.randomBytes(32).toString('base64url')),
);
const value = (id: number, userId: number, expires: number) => `download:${id}:${userId}:${expires}`;

/** A link to job `id`'s file that works without a session until it expires. */
export async function signLink(ctx: AppContext, id: number, userId: number, now = Date.now()) {
  const expires = now + DOWNLOAD_LINK_MS;
  const sig = await links.sign(ctx, value(id, userId, expires));
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
): Promise<LinkCheck> {
  return links.check(ctx, value(id, userId, expires), sig, expires, now);
}
