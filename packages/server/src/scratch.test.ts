import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { testApp } from './test/harness.ts';
import { downloadsDir } from './modules/downloads/storage.ts';
import { LocalStore, storage } from './modules/files/storage.ts';
import { scratchDir } from './scratch.ts';

it('an app without DATA_DIR keeps its files and exports in temporary directories it removes when it closes', async () => {
  const t = await testApp();
  const files = storage(t.ctx);
  expect(files).toBeInstanceOf(LocalStore);
  await files.put('org/1/logo.txt', Buffer.from('logo'), { contentType: 'text/plain' });
  const exports = downloadsDir(t.ctx);
  fs.writeFileSync(path.join(exports, '1.csv'), 'a,b\n');
  // The media uploads' parts directory (media/uploads.ts asks for it by this prefix).
  const parts = scratchDir(t.ctx.config, 'se-media-uploads-');
  const dirs = [(files as LocalStore).root, exports, parts];
  expect(new Set(dirs).size).toBe(3);
  for (const d of dirs) expect(fs.existsSync(d)).toBe(true);
  await t.close();
  for (const d of dirs) expect(fs.existsSync(d), d).toBe(false);
});
