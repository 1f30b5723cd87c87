import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import Fastify from 'fastify';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import {
  HTML_AS_JPG,
  POLYGLOT_JPEG,
  SVG_WITH_SCRIPT,
  bombPng,
  photoJpeg,
} from '../../test/hostile-images.ts';
import { reencodeImage } from './images.ts';
import { parseRange, sendStored } from './send.ts';
import { LocalStore, storage } from './storage.ts';
import { removeScratchDirs } from '../../scratch.ts';

const dirs: string[] = [];
const tmpDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'files-test-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return (err as AppError).message;
}

describe('local file store', () => {
  it('stores a stream under a key, reads it back whole and by range, and removes it', async () => {
    const store = new LocalStore(tmpDir());
    const body = Readable.from(['你好，', 'world', '!'.repeat(10)]);
    const saved = await store.put('org/1/notice.txt', body, { contentType: 'text/plain' });
    expect(saved.size).toBe(Buffer.byteLength('你好，world' + '!'.repeat(10)));
    expect(saved.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.stat('org/1/notice.txt')).toEqual({ size: saved.size, contentType: 'text/plain' });
    expect(await text((await store.get('org/1/notice.txt'))!.stream)).toBe('你好，world' + '!'.repeat(10));
    const part = (await store.get('org/1/notice.txt', { start: 9, end: 13 }))!;
    expect(part.size).toBe(5);
    expect(part.total).toBe(saved.size);
    expect(await text(part.stream)).toBe('world');
    await store.remove('org/1/notice.txt');
    expect(await store.get('org/1/notice.txt')).toBeNull();
    await store.remove('org/1/notice.txt'); // again: not an error
  });

  it('refuses keys that would leave its directory', async () => {
    const store = new LocalStore(tmpDir());
    for (const key of ['../x', '/etc/passwd', 'a/../../b', 'a//b', '']) {
      await expect(store.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(
        /invalid storage key/,
      );
    }
  });

  it('an app without a data directory still gets a working store', async () => {
    const config = { dataDir: null } as never;
    const s = storage({ config });
    await s.put('a.bin', Buffer.from([1, 2, 3]), { contentType: 'application/octet-stream' });
    expect((await s.stat('a.bin'))?.size).toBe(3);
    removeScratchDirs(config);
  });
});

describe('reencodeImage', () => {
  it('re-encodes a photo to WebP and drops its metadata', async () => {
    const jpeg = await photoJpeg(640, 480);
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const out = await reencodeImage(jpeg, { maxBytes: 2 * 1024 * 1024, maxSide: 320 });
    expect(out.mime).toBe('image/webp');
    expect([out.width, out.height]).toEqual([320, 240]);
    const meta = await sharp(out.buffer).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
  });

  it('refuses SVG, HTML named .jpg, a JPEG/HTML polyglot, a bomb and an oversized file, each with its reason', async () => {
    const limits = { maxBytes: 2 * 1024 * 1024 };
    expect(await refusal(reencodeImage(SVG_WITH_SCRIPT, limits))).toContain('不支持 SVG');
    expect(await refusal(reencodeImage(HTML_AS_JPG, limits))).toContain('不是有效的图片');
    expect(await refusal(reencodeImage(POLYGLOT_JPEG, limits))).toContain('图片已损坏');
    expect(await refusal(reencodeImage(bombPng(), limits))).toContain('图片尺寸过大（100000×100000）');
    expect(await refusal(reencodeImage(Buffer.alloc(3 * 1024 * 1024, 1), limits))).toBe('图片不能超过 2 MB');
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    expect(await refusal(reencodeImage(gif, limits))).toBe('不支持 GIF 图片，请上传 JPEG、PNG、WebP 格式');
  });
});

describe('sendStored', () => {
  it('serves a stored file as an attachment or inline media, never sniffed, with ranges for seeking', async () => {
    const config = { dataDir: tmpDir() } as never;
    const store = storage({ config });
    await store.put('m/clip.mp4', Buffer.from('0123456789'), { contentType: 'video/mp4' });
    await store.put('m/page.html', Buffer.from('<script>alert(1)</script>'), { contentType: 'text/html' });
    const app = Fastify();
    app.get('/f/:name', async (req, reply) => {
      const { name } = req.params as { name: string };
      return sendStored({ config }, req, reply, `m/${name}`, { filename: `视频-${name}`, inline: true });
    });
    const whole = await app.inject({ url: '/f/clip.mp4' });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['x-content-type-options']).toBe('nosniff');
    expect(whole.headers['content-security-policy']).toContain('sandbox');
    expect(whole.headers['content-disposition']).toContain(
      `inline; filename="__-clip.mp4"; filename*=UTF-8''`,
    );
    expect(whole.body).toBe('0123456789');

    const seek = await app.inject({ url: '/f/clip.mp4', headers: { range: 'bytes=4-' } });
    expect(seek.statusCode).toBe(206);
    expect(seek.headers['content-range']).toBe('bytes 4-9/10');
    expect(seek.body).toBe('456789');
    expect((await app.inject({ url: '/f/clip.mp4', headers: { range: 'bytes=20-' } })).statusCode).toBe(416);

    // HTML is never shown inline from the console's origin, whatever the route asks.
    const html = await app.inject({ url: '/f/page.html' });
    expect(html.headers['content-type']).toBe('application/octet-stream');
    expect(html.headers['content-disposition']).toMatch(/^attachment;/);
    await app.close();
  });

  it('parses the Range forms browsers send', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=0-1,4-5', 10)).toBeNull();
    expect(parseRange('bytes=9-3', 10)).toBe('bad');
    expect(parseRange(undefined, 10)).toBeNull();
  });
});
