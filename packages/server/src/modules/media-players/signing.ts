import crypto from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { linkSigner, type LinkCheck } from '../../keyed-hash.ts';
import { secret } from '../downloads/repo.ts';

/** Manifest links, under their own secret in the database so every server copy shares it. */
const links = linkSigner((db) =>
  secret(db, 'media_player_link_hmac', crypto.randomBytes(32).toString('base64url')),
);

/** What a link signs: the item (0 for the live-data link), the player it was made for, expiry (unix s). */
const value = (item: number, device: number, expires: number) => `media:${item}:${device}:${expires}`;

/** A signer for one fan-out: one secret read, then plain HMACs. */
export async function signer(ctx: AppContext) {
  const sign = await links.signer(ctx);
  return (item: number, device: number, expires: number) => sign(value(item, device, expires));
}

/** Checks a link (constant time), then its expiry. */
export function checkMediaLink(
  ctx: AppContext,
  item: number,
  device: number,
  expires: number,
  sig: string,
  nowS = Math.floor(Date.now() / 1000),
): Promise<LinkCheck> {
  return links.check(ctx, value(item, device, expires), sig, expires, nowS);
}
