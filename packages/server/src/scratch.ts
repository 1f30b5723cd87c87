import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The directories of an app that keeps no data on disk (no DATA_DIR: the tests' in-memory
 * apps): made in the system's temporary directory when first asked for, one per owner (the
 * app's config) and prefix, and removed with the app (app.ts onClose: removeScratchDirs).
 * Files, media uploads and exports each kept one and left it behind: a test run left ~40.
 */
const made = new WeakMap<object, Map<string, string>>();

export function scratchDir(owner: object, prefix: string): string {
  let dirs = made.get(owner);
  if (!dirs) made.set(owner, (dirs = new Map()));
  let dir = dirs.get(prefix);
  if (!dir) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.set(prefix, dir);
  }
  return dir;
}

export function removeScratchDirs(owner: object) {
  for (const dir of made.get(owner)?.values() ?? []) fs.rmSync(dir, { recursive: true, force: true });
  made.delete(owner);
}
