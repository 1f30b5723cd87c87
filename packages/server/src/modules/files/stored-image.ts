/**
 * One uploaded picture that replaces another on a row (an organisation's logo, a building's
 * photo): checked and re-encoded (images.ts), stored through the file-storage module, the
 * row pointed at it by the caller's audited mutation, and the picture it replaced removed.
 */
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../errors.ts';
import { reencodeImage, type ImageLimits } from './images.ts';
import { storage } from './storage.ts';

/** The refusal of a body that is no file at all. */
export const NOT_AN_IMAGE = '请上传 PNG、JPEG 或 WebP 图片';

/**
 * Re-encodes `body` to WebP and stores it as `${keyBase}-<time>.webp`; `point` saves the new
 * key on the row (the area's mutate). Answers what `point` answered. The previous file
 * (`old`, '' for none) is removed once the row points at the new one; a failed save removes
 * the new one instead.
 */
export async function replaceStoredImage<T>(
  ctx: AppContext,
  body: unknown,
  o: { keyBase: string; old: string; limits: Omit<ImageLimits, 'output'> },
  point: (key: string) => Promise<T>,
): Promise<T> {
  if (!Buffer.isBuffer(body)) throw badRequest(NOT_AN_IMAGE);
  const img = await reencodeImage(body, { ...o.limits, output: 'webp' });
  const store = storage(ctx);
  const stored = await store.put(`${o.keyBase}-${Date.now()}.webp`, img.buffer, { contentType: img.mime });
  let out: T;
  try {
    out = await point(stored.key);
  } catch (err) {
    await store.remove(stored.key).catch(() => {});
    throw err;
  }
  if (o.old && o.old !== stored.key) await store.remove(o.old).catch(() => {});
  return out;
}
