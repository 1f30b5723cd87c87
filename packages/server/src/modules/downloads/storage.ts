import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../context.ts';
import { scratchDir } from '../../scratch.ts';

/**
 * Where export files live: `${DATA_DIR}/downloads/`, or a private temporary directory when
 * the app keeps no data on disk (tests), removed when the app closes (scratchDir).
 */
export function downloadsDir(ctx: AppContext): string {
  if (!ctx.config.dataDir) return scratchDir(ctx.config, 'se-downloads-');
  const dir = path.resolve(ctx.config.dataDir, 'downloads');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
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
