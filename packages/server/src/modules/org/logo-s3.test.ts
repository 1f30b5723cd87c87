// The file-storage module's S3 path, against a real S3-protocol server (s3rver) started
// here: several server copies share files through the bucket. The organisation logo is its
// first user; media and maintenance reuse the same module.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ORG_API, PERMISSION, type OrgRow } from '@se/core';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApp, type TestApp } from '../../test/harness.ts';
import { storage } from '../files/storage.ts';

let s3: S3rver;
let dir: string;
let t: TestApp;
let admin: string;
let s3Url: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'i15-s3rver-'));
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'console' }],
  });
  const addr = (await s3.run()) as { port: number };
  s3Url = `http://S3RVER:S3RVER@127.0.0.1:${addr.port}/console/files`;
  ({ t, admin } = await adminApp({ s3Url }));
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('file storage in an S3 bucket', () => {
  it('a logo uploaded through one server copy is served by another copy from the bucket, with ranges', async () => {
    const mgr = await t.account('s3_mgr', PERMISSION.ssManager | PERMISSION.ssUser | PERMISSION.ssVisitor, 1);
    const org = (await t.post<OrgRow>(ORG_API.add, { name: '桶大学', user_id: mgr.id }, { token: admin }))
      .data;
    const png = await sharp({ create: { width: 30, height: 20, channels: 4, background: '#ff0000' } })
      .png()
      .toBuffer();
    const up = await t.app.inject({
      method: 'POST',
      url: `${ORG_API.uploadLogo}?id=${org.id}`,
      headers: { 'x-token': mgr.token, 'content-type': 'application/octet-stream' },
      payload: png,
    });
    const key = (up.json() as { data: OrgRow }).data.logo;
    expect(key).toMatch(/^org\/\d+\/logo-\d+\.webp$/);

    // Nothing on this copy's disk: the bytes are in the bucket, under the URL's prefix.
    const objects = fs.readdirSync(dir, { recursive: true }).map(String);
    expect(objects.some((p) => p.includes('files/org') || p.includes(`logo-`))).toBe(true);

    // Another copy (same database and bucket, its own memory) reads it.
    const other = storage({ config: { ...t.ctx.config } });
    expect(other.kind).toBe('s3');
    const st = await other.stat(key);
    expect(st).toMatchObject({ contentType: 'image/webp' });
    const part = await other.get(key, { start: 0, end: 3 });
    const chunks: Buffer[] = [];
    for await (const c of part!.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString('latin1')).toBe('RIFF');
    expect(part!.total).toBe(st!.size);

    const got = await t.app.inject({
      method: 'GET',
      url: `${ORG_API.logo}?id=${org.id}`,
      headers: { 'x-token': mgr.token },
    });
    expect(got.statusCode).toBe(200);
    expect((await sharp(got.rawPayload).metadata()).format).toBe('webp');
    const ranged = await t.app.inject({
      method: 'GET',
      url: `${ORG_API.logo}?id=${org.id}`,
      headers: { 'x-token': mgr.token, range: 'bytes=0-3' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.toString('latin1')).toBe('RIFF');

    // A new logo replaces the old object in the bucket.
    await t.app.inject({
      method: 'POST',
      url: `${ORG_API.uploadLogo}?id=${org.id}`,
      headers: { 'x-token': mgr.token, 'content-type': 'application/octet-stream' },
      payload: png,
    });
    expect(await other.stat(key)).toBeNull();
  });
});
