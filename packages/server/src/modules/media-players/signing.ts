import crypto from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { secret } from '../downloads/repo.ts';

const keys = new WeakMap<AppContext, Promise<Buffer>>();

/** The HMAC key of manifest links, in the database so every server copy shares it. */
function keyOf(ctx: AppContext): Promise<Buffer> {
  let k = keys.get(ctx);
  if (!k) {
    k = secret(ctx.db, 'media_player_link_hmac', crypto.randomBytes(32).toString('base64url')).then((v) =>
      Buffer.from(v, 'base64url'),
    );
    k.catch(() => keys.delete(ctx));
    keys.set(ctx, k);
  }
  return k;
}

/** What a link signs: the item (0 for the live-data link), the player it was made for, expiry (unix s). */
const mac = (key: Buffer, item: number, device: number, expires: number) =>
  crypto
    .createHmac('sha256', key)
    .update(`media:${item}:${device}:${expires}`)
    .digest('base64url')
    .slice(0, 32);

/** A signer for one fan-out: one key read, then pure HMACs. */
export async function signer(ctx: AppContext) {
  const key = await keyOf(ctx);
  return (item: number, device: number, expires: number) => mac(key, item, device, expires);
}

/** Checks a link (constant time), then its expiry. */
export async function checkMediaLink(
  ctx: AppContext,
  item: number,
  device: number,
  expires: number,
  sig: string,
  nowS = Math.floor(Date.now() / 1000),
): Promise<'ok' | 'invalid' | 'expired'> {
  const want = Buffer.from(mac(await keyOf(ctx), item, device, expires));
  const got = Buffer.from(sig);
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) return 'invalid';
  return expires < nowS ? 'expired' : 'ok';
}
