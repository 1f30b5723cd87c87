/**
 * Resumable chunked uploads (issue 17). The client asks for an upload (kind, name, size and
 * a fingerprint of the file: the same file asked for again finds the same upload), then sends
 * raw chunks at the offset the server says it holds. Each chunk is streamed straight into a
 * part file under DATA_DIR (never held in memory); a chunk cut off by a dropped connection
 * leaves what arrived in the part file and the client resumes from there. `finish` checks the
 * bytes (pictures: decoded and re-encoded, metadata stripped, thumbnail; videos: probed,
 * poster frame), moves them into the file store and adds the item as 待审核.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MEDIA_LIMITS, type UploadState } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { badRequest, conflict, notFound, AppError } from '../../errors.ts';
import { CODE } from '@se/core';
import { managedUserId } from '../access/users.ts';
import { reencodeImage, formatBytes } from '../files/images.ts';
import { storage } from '../files/storage.ts';
import { scratchDir } from '../../scratch.ts';
import * as repo from './repo.ts';
import { answer, quotaOf } from './service.ts';
import { posterFrame, probeVideo } from './video.ts';
import { create } from '../audit/mutate.ts';

const dirs = new WeakMap<object, string>();

/** Where part files wait: `${DATA_DIR}/media-uploads` (a temporary dir for in-memory test apps). */
function partsDir(ctx: Pick<AppContext, 'config'>) {
  let d = dirs.get(ctx.config);
  if (!d) {
    d = ctx.config.dataDir
      ? path.join(ctx.config.dataDir, 'media-uploads')
      : scratchDir(ctx.config, 'se-media-uploads-');
    dirs.set(ctx.config, d);
  }
  return d;
}

const partFile = (ctx: AppContext, id: string) => path.join(partsDir(ctx), `${id}.part`);

async function received(ctx: AppContext, id: string) {
  try {
    return (await stat(partFile(ctx, id))).size;
  } catch {
    return 0;
  }
}

const maxBytes = (kind: 'picture' | 'video') =>
  kind === 'picture' ? MEDIA_LIMITS.pictureBytes : MEDIA_LIMITS.videoBytes;

async function checkQuota(ctx: AppContext, userId: number, size: number, uploadId?: string) {
  const q = await quotaOf(ctx, userId);
  const reserved = await repo.reservedOf(ctx.db, userId, uploadId);
  if (q.used + reserved + size > q.quota) {
    throw new AppError(
      CODE.tooLarge,
      `存储空间不足：已用 ${formatBytes(q.used + reserved)}，配额 ${formatBytes(q.quota)}，此文件 ${formatBytes(size)}`,
    );
  }
}

/** An upload the caller started (only its starter sends its chunks). */
async function mine(ctx: AppContext, caller: Caller, id: string) {
  const u = await repo.findUpload(ctx.db, id);
  if (!u || u.created_by !== caller.id) throw notFound('上传不存在或已过期，请重新选择文件');
  return u;
}

const stateOf = async (ctx: AppContext, u: repo.UploadRow): Promise<UploadState> => ({
  id: u.id,
  kind: u.kind,
  name: u.name,
  size: u.size,
  received: await received(ctx, u.id),
  chunk_bytes: MEDIA_LIMITS.chunkBytes,
});

/** Uploads taking a chunk right now: one writer per part file. */
const busy = new Set<string>();

/** An upload not finished this long after it started is dropped (its part file and its quota reservation). */
const STALE_HOURS = 7 * 24;
const swept = new WeakMap<object, number>();

/** Drops stale uploads, at most once an hour per app. */
async function sweepStale(ctx: AppContext) {
  const now = Date.now();
  if ((swept.get(ctx.config) ?? 0) > now - 3_600_000) return;
  swept.set(ctx.config, now);
  for (const { id } of await repo.staleUploads(ctx.db, STALE_HOURS)) {
    if (busy.has(id)) continue;
    await rm(partFile(ctx, id), { force: true });
    await repo.deleteUpload(ctx.db, id);
  }
}

export async function start(
  ctx: AppContext,
  caller: Caller,
  b: { kind: 'picture' | 'video'; name: string; size: number; fingerprint: string; target_user_id?: number },
) {
  const userId = await managedUserId(ctx, caller, b.target_user_id);
  await sweepStale(ctx);
  const again = await repo.findUploadByFingerprint(ctx.db, caller.id, userId, b.fingerprint);
  if (again && again.size === b.size && again.kind === b.kind) return stateOf(ctx, again);
  if (again) {
    await rm(partFile(ctx, again.id), { force: true });
    await repo.deleteUpload(ctx.db, again.id);
  }
  const limit = maxBytes(b.kind);
  if (b.size > limit)
    throw new AppError(
      CODE.tooLarge,
      `${b.kind === 'picture' ? '图片' : '视频'}不能超过 ${formatBytes(limit)}`,
    );
  await checkQuota(ctx, userId, b.size);
  const u: repo.UploadRow = {
    id: randomBytes(16).toString('hex'),
    user_id: userId,
    created_by: caller.id,
    kind: b.kind,
    name: b.name,
    size: b.size,
    fingerprint: b.fingerprint,
  };
  await repo.insertUpload(ctx.db, u);
  await mkdir(partsDir(ctx), { recursive: true });
  return stateOf(ctx, u);
}

export async function state(ctx: AppContext, caller: Caller, id: string) {
  return stateOf(ctx, await mine(ctx, caller, id));
}

/** Appends the request body (a stream) at `offset`, which must be what the server holds. */
export async function chunk(ctx: AppContext, caller: Caller, id: string, offset: number, body: unknown) {
  if (!(body instanceof Readable)) throw badRequest('请以 application/x-media-chunk 发送文件内容');
  const u = await mine(ctx, caller, id);
  if (busy.has(id)) throw conflict('该文件的上一段仍在接收中，请稍后重试');
  busy.add(id);
  try {
    const have = await received(ctx, id);
    if (offset !== have) {
      throw new AppError(
        CODE.conflict,
        `续传位置不一致：服务器已收到 ${have} 字节，请从该位置继续`,
        await stateOf(ctx, u),
      );
    }
    const room = Math.min(MEDIA_LIMITS.chunkMaxBytes, u.size - have);
    if (room <= 0) throw badRequest('文件已全部收到，请完成上传');
    let n = 0;
    const cap = new Transform({
      transform(buf: Buffer, _enc, cb) {
        n += buf.length;
        if (n > room) cb(new AppError(CODE.tooLarge, `每段不能超过 ${formatBytes(room)}`));
        else cb(null, buf);
      },
    });
    try {
      await pipeline(body, cap, createWriteStream(partFile(ctx, id), { flags: 'a' }));
    } catch (err) {
      if (err instanceof AppError) throw err;
      // The connection dropped: what arrived stays in the part file; the client resumes.
      throw badRequest('连接中断，请从服务器已收到的位置继续上传');
    }
    return stateOf(ctx, u);
  } finally {
    busy.delete(id);
  }
}

/** Scans a picture's bytes for markup a browser or a script engine would act on. */
export function looksLikeMarkup(buf: Buffer) {
  return /<(script|html|body|iframe|object|embed|svg|!doctype|\?php)[\s>/]/i.test(buf.toString('latin1'));
}

export async function finish(ctx: AppContext, caller: Caller, ip: string, id: string) {
  const u = await mine(ctx, caller, id);
  if (busy.has(id)) throw conflict('该文件的上一段仍在接收中，请稍后重试');
  const file = partFile(ctx, id);
  const have = await received(ctx, id);
  if (have !== u.size) throw badRequest(`文件尚未传完：已收到 ${have} / ${u.size} 字节`);
  busy.add(id);
  const store = storage(ctx);
  const base = `media/${u.user_id}/${randomUUID()}`;
  const written: string[] = [];
  try {
    let item: repo.NewItem;
    if (u.kind === 'picture') {
      const buf = await readFile(file);
      if (looksLikeMarkup(buf))
        throw badRequest(
          '文件中夹带网页或脚本内容（伪装的图片），已拒绝，请上传普通的 JPEG、PNG、WebP 或 GIF 图片',
        );
      const img = await reencodeImage(buf, {
        maxBytes: MEDIA_LIMITS.pictureBytes,
        maxPixels: MEDIA_LIMITS.picturePixels,
        accept: ['jpeg', 'png', 'webp', 'gif'],
      });
      const thumb = await reencodeImage(img.buffer, {
        maxBytes: MEDIA_LIMITS.pictureBytes,
        maxPixels: MEDIA_LIMITS.picturePixels,
        accept: ['jpeg', 'png', 'webp', 'gif'],
        maxSide: MEDIA_LIMITS.thumbSide,
        output: 'webp',
      });
      const key = `${base}.${img.format === 'jpeg' ? 'jpg' : img.format}`;
      const stored = await store.put(key, img.buffer, { contentType: img.mime });
      written.push(key);
      const thumbKey = `${base}-thumb.webp`;
      await store.put(thumbKey, thumb.buffer, { contentType: 'image/webp' });
      written.push(thumbKey);
      item = {
        user_id: u.user_id,
        kind: 'picture',
        name: u.name,
        storage_key: key,
        mime: img.mime,
        size: stored.size,
        width: img.width,
        height: img.height,
        sha256: stored.sha256,
        thumb_key: thumbKey,
      };
    } else {
      const info = await probeVideo(file);
      let posterKey: string | null = null;
      const frame = await posterFrame(file, info.duration_ms);
      if (frame) {
        const poster = await reencodeImage(frame, {
          maxBytes: 64 * 1024 * 1024,
          maxPixels: 40_000_000,
          accept: ['png'],
          maxSide: 640,
          output: 'webp',
        }).catch(() => null);
        if (poster) {
          posterKey = `${base}-poster.webp`;
          await store.put(posterKey, poster.buffer, { contentType: 'image/webp' });
          written.push(posterKey);
        }
      }
      const key = `${base}.${info.container}`;
      const stored = await store.put(key, createReadStream(file), { contentType: info.mime });
      written.push(key);
      item = {
        user_id: u.user_id,
        kind: 'video',
        name: u.name,
        storage_key: key,
        mime: info.mime,
        size: stored.size,
        width: info.width,
        height: info.height,
        duration_ms: info.duration_ms,
        codec: info.codec,
        sha256: stored.sha256,
        poster_key: posterKey,
      };
    }
    await checkQuota(ctx, u.user_id, item.size ?? 0, u.id);
    const newId = await create(ctx, caller, ip, {
      insert: async (tx) => {
        const n = await repo.insertItem(tx, item);
        await repo.deleteUpload(tx, u.id);
        return n;
      },
      audit: { action: 'media.add', entity: 'media_item', targetUserId: u.user_id },
      after: { kind: item.kind, name: item.name, size: item.size, mime: item.mime, sha256: item.sha256 },
    });
    written.length = 0;
    await rm(file, { force: true });
    return answer(ctx, newId);
  } catch (err) {
    for (const key of written) await store.remove(key).catch(() => undefined);
    // A refused file is not kept: the upload ends, the user picks another file.
    if (err instanceof AppError && err.code === CODE.badRequest) {
      await rm(file, { force: true });
      await repo.deleteUpload(ctx.db, u.id);
    }
    throw err;
  } finally {
    busy.delete(id);
  }
}

/** Drops an unfinished upload (the user cancelled). */
export async function cancel(ctx: AppContext, caller: Caller, id: string) {
  const u = await mine(ctx, caller, id);
  if (busy.has(id)) throw conflict('该文件的上一段仍在接收中，请稍后重试');
  await rm(partFile(ctx, u.id), { force: true });
  await repo.deleteUpload(ctx.db, u.id);
  return null;
}
