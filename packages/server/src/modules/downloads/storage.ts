import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../context.ts';

const tempDirs = new WeakMap<AppContext, string>();

/**
 * Where export files live: `${DATA_DIR}/downloads/`, or a private temp directory when the
 * app keeps no data on disk (tests), removed by `removeTempDir` when the app closes.
 */
export function downloadsDir(ctx: AppContext): string {
  if (ctx.config.dataDir) {
    const dir = path.resolve(ctx.config.dataDir, 'downloads');
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }
  let dir = tempDirs.get(ctx);
  if (!dir) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-downloads-'));
    tempDirs.set(ctx, dir);
  }
  return dir;
}

export function removeTempDir(ctx: AppContext) {
  const dir = tempDirs.get(ctx);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(ctx);
}

/** A stored name (never a path from a client) inside the directory. */
export function storedFile(ctx: AppContext, stored: string): string {
  return path.join(downloadsDir(ctx), path.basename(stored));
}

export const partName = (id: number) => `job-${id}.part`;
export const finalName = (id: number, format: string) => `${id}.${format}`;

export async function unlinkQuiet(file: string) {
  await fs.promises.rm(file, { force: true }).catch(() => {});
}

/** A file name a user sees: no path separators or characters Windows refuses. */
export function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const t = name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim();
  return t.slice(0, 120) || '导出';
}
