import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import {
  CODE,
  DOWNLOAD_KEEP_DAYS,
  canAccess,
  type CreateDownloadBody,
  type DownloadListQuery,
} from '@se/core';
import type { z } from 'zod';
import type { createDownloadBody } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { AppError, badRequest, forbidden, notFound } from '../../errors.ts';
import { parseOrThrow } from '../../http/validation.ts';
import { findExport } from './registry.ts';
import * as repo from './repo.ts';
import { runnerOf } from './runner.ts';
import { checkLink, signLink } from './signing.ts';
import { downloadsDir, finalName, partName, safeFileName, storedFile, unlinkQuiet } from './storage.ts';

/** Unfinished jobs one user may have at once: more waits for these to end. */
export const MAX_ACTIVE_PER_USER = 5;

type CreateBody = z.output<typeof createDownloadBody>;

/**
 * Queues an export for the caller: the name must be registered, the params must pass the
 * export's own filter schema, and the caller must have the export's bits — all checked
 * here, so a refused export never becomes a job. The file is made by the runner.
 */
export async function create(ctx: AppContext, caller: Caller, b: CreateBody) {
  const def = findExport(b.name);
  if (!def) throw badRequest(`没有名为“${b.name.slice(0, 40)}”的导出类型`);
  const q = parseOrThrow(def.query, b.params);
  if (!canAccess(caller.permission, def.accessFor ? def.accessFor(q) : def.access)) {
    throw forbidden(`没有权限导出${def.label}`);
  }
  await def.prepare?.(ctx, caller, q);
  if ((await repo.countActiveOf(ctx.db, caller.id)) >= MAX_ACTIVE_PER_USER) {
    throw new AppError(
      CODE.rateLimited,
      `已有${MAX_ACTIVE_PER_USER}个导出任务在进行中，请等它们完成后再导出`,
    );
  }
  const id = await repo.insertJob(ctx.db, {
    userId: caller.id,
    name: def.name,
    label: def.label,
    // What was parsed, not what was sent: the runner reads the same normalised filter.
    params: q,
    summary: def.summary?.(q) ?? '',
    format: def.format ?? 'xlsx',
  });
  runnerOf(ctx).wake();
  return get(ctx, caller, id);
}

export async function list(ctx: AppContext, caller: Caller, q: DownloadListQuery) {
  const r = await repo.listJobs(ctx.db, {
    userId: caller.id,
    status: q.status,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

/** A job of the caller's own; someone else's is refused (it is in their centre, not ours). */
async function own(ctx: AppContext, caller: Caller, id: number) {
  const row = await repo.findRow(ctx.db, id);
  if (!row) throw notFound('导出任务不存在或已删除');
  if (row.user_id !== caller.id) throw forbidden('这是其他用户的导出任务，无权访问');
  return row;
}

export async function get(ctx: AppContext, caller: Caller, id: number) {
  const { user_id: _, ...row } = await own(ctx, caller, id);
  return row;
}

/** Deletes a job and its file; a running one stops at its next page. */
export async function remove(ctx: AppContext, caller: Caller, id: number) {
  await own(ctx, caller, id);
  const r = await repo.deleteJob(ctx.db, id);
  runnerOf(ctx).cancel(id);
  if (r?.stored_path) await unlinkQuiet(storedFile(ctx, r.stored_path));
  await unlinkQuiet(storedFile(ctx, partName(id)));
  return null;
}

function assertDownloadable(row: { status: string; error: string }) {
  if (row.status === 'expired') {
    throw notFound(`文件已过期（导出文件保留${DOWNLOAD_KEEP_DAYS}天），请重新导出`);
  }
  if (row.status === 'failed') throw badRequest(`导出失败，没有文件可下载：${row.error}`);
  if (row.status !== 'done') throw badRequest('文件还在生成中，请稍候');
}

/** A link to the file for a browser to open (valid a few minutes, no session needed). */
export async function link(ctx: AppContext, caller: Caller, id: number) {
  const row = await own(ctx, caller, id);
  assertDownloadable(row);
  if (row.expires_in_ms !== null && row.expires_in_ms <= 0) assertDownloadable({ ...row, status: 'expired' });
  return signLink(ctx, id, caller.id);
}

/** The file behind a signed link: its stream, size, name and type. */
export async function openSigned(ctx: AppContext, q: { id: number; expires: number; sig: string }) {
  const job = await repo.findRecord(ctx.db, q.id);
  // An unknown id and a forged signature read the same: nothing to learn by guessing.
  const check = job ? await checkLink(ctx, job.id, job.user_id, q.expires, q.sig) : 'invalid';
  if (!job || check === 'invalid') throw forbidden('下载链接无效，请回到下载中心重新点击下载');
  if (check === 'expired') throw forbidden('下载链接已过期，请回到下载中心重新点击下载');
  assertDownloadable({ status: job.expired ? 'expired' : job.status, error: '' });
  const file = storedFile(ctx, job.stored_path ?? '');
  let size: number;
  try {
    size = (await fs.promises.stat(file)).size;
  } catch {
    throw notFound('文件已不在服务器上，请重新导出');
  }
  return { file, size, name: job.file_name, format: job.format };
}

/**
 * Puts an already generated file into a user's download centre (weekly reports and other
 * server-made files): stored like an export's file and kept as long.
 */
export async function addFile(
  ctx: AppContext,
  userId: number,
  label: string,
  fileName: string,
  body: Buffer | Readable,
  opts: { name?: string; summary?: string; params?: Record<string, unknown>; rows?: number } = {},
) {
  const format = fileName.toLowerCase().endsWith('.csv') ? 'csv' : 'xlsx';
  const dir = downloadsDir(ctx);
  const tmp = `${dir}/add-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.part`;
  try {
    if (Buffer.isBuffer(body)) await fs.promises.writeFile(tmp, body);
    else await pipeline(body, fs.createWriteStream(tmp));
    const size = (await fs.promises.stat(tmp)).size;
    return await ctx.db.transaction(async (tx) => {
      const id = await repo.insertFile(tx, {
        userId,
        name: opts.name ?? 'file',
        label,
        params: opts.params ?? {},
        summary: opts.summary ?? '',
        format,
        fileName: safeFileName(fileName),
        storedPath: finalName(0, format),
        size,
        rows: opts.rows ?? null,
        keepDays: DOWNLOAD_KEEP_DAYS,
      });
      const stored = finalName(id, format);
      await repo.setStoredPath(tx, id, stored);
      await fs.promises.rename(tmp, storedFile(ctx, stored));
      return id;
    });
  } finally {
    await unlinkQuiet(tmp);
  }
}

/**
 * The daily clean-up: files of jobs finished more than DOWNLOAD_KEEP_DAYS ago are deleted
 * and their rows marked expired (kept 30 more days so the list can say so), and files no
 * row points at (a crash between writing and recording) are removed.
 */
export async function expireDownloads(ctx: AppContext) {
  const due = await repo.expireDue(ctx.db);
  for (const r of due) if (r.stored_path) await unlinkQuiet(storedFile(ctx, r.stored_path));
  await repo.purgeOld(ctx.db, 30);
  const keep = await repo.storedPaths(ctx.db);
  const dir = downloadsDir(ctx);
  let orphans = 0;
  for (const f of await fs.promises.readdir(dir)) {
    if (keep.has(f)) continue;
    const st = await fs.promises.stat(`${dir}/${f}`).catch(() => null);
    // A file another copy is writing right now (addFile's temp) is young: leave it.
    if (!st?.isFile() || Date.now() - st.mtimeMs < 3_600_000) continue;
    await unlinkQuiet(`${dir}/${f}`);
    orphans++;
  }
  return { expired: due.length, orphans };
}

export type { CreateDownloadBody };
