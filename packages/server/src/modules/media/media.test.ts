import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  MEDIA_API,
  MEDIA_CHUNK_TYPE,
  MEDIA_STATUS,
  PERMISSION,
  type MediaItemRow,
  type MediaQuota,
  type UploadState,
} from '@se/core';
import { DEALER_RIGHTS, adminApp, auditOf, type Account, type TestApp } from '../../test/harness.ts';
import {
  HTML_AS_JPG,
  POLYGLOT_JPEG,
  SVG_WITH_SCRIPT,
  bombPng,
  photoJpeg,
} from '../../test/hostile-images.ts';

let t: TestApp;
let admin: string;
/** A dealer with the media role, a media customer below it, another dealer beside it. */
let dealer: Account;
let customer: Account;
let other: Account;
/** A plain user without the media bit. */
let plain: Account;
let tmp: string;
let fp = 0;

const MEDIA_DEALER = DEALER_RIGHTS | PERMISSION.media;
const MEDIA_USER = PERMISSION.media | PERMISSION.user | PERMISSION.visitor;

/** A short test video made by ffmpeg (the Debian package the server needs anyway). */
function makeVideo(name: string, args: string[]) {
  const file = path.join(tmp, name);
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, file]);
  return readFileSync(file);
}

async function sendChunk(token: string, id: string, offset: number, bytes: Buffer) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${MEDIA_API.uploadChunk}?id=${id}&offset=${offset}`,
    headers: { 'x-token': token, 'content-type': MEDIA_CHUNK_TYPE },
    payload: bytes,
  });
  return res.json() as { code: number; message: string; data: UploadState };
}

const start = (
  token: string,
  kind: 'picture' | 'video',
  name: string,
  size: number,
  extra: Record<string, unknown> = {},
) =>
  t.post<UploadState>(MEDIA_API.uploads, { kind, name, size, fingerprint: `f-${++fp}`, ...extra }, { token });

/** Uploads `bytes` in chunks of `chunk` bytes and finishes; answers the finish envelope. */
async function upload(
  token: string,
  kind: 'picture' | 'video',
  name: string,
  bytes: Buffer,
  chunk = 64 * 1024,
) {
  const s = await start(token, kind, name, bytes.length);
  if (s.code !== 200) return s as never as Awaited<ReturnType<typeof finish>>;
  for (let off = 0; off < bytes.length; off += chunk) {
    const r = await sendChunk(token, s.data.id, off, bytes.subarray(off, off + chunk));
    expect(r.code, r.message).toBe(200);
  }
  return finish(token, s.data.id);
}
const finish = (token: string, id: string) => t.post<MediaItemRow>(MEDIA_API.uploadFinish, { id }, { token });

const fetchUrl = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  dealer = await t.account('md_dealer', MEDIA_DEALER, 1);
  other = await t.account('md_other', MEDIA_DEALER, 1);
  customer = await t.account('md_customer', MEDIA_USER, dealer.id);
  plain = await t.account('md_plain', DEALER_RIGHTS, 1);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'media-test-'));
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('pictures', () => {
  it('stores an uploaded photo re-encoded without its metadata, with a thumbnail, as 待审核', async () => {
    const jpeg = await photoJpeg(800, 600);
    expect(jpeg.toString('latin1')).toContain('SecretCam');
    const r = await upload(customer.token, 'picture', '门口海报', jpeg, 1000);
    expect(r.code, r.message).toBe(200);
    expect(r.data).toMatchObject({
      kind: 'picture',
      name: '门口海报',
      status: MEDIA_STATUS.pending,
      width: 800,
      height: 600,
    });
    const file = await fetchUrl(r.data.file_url!);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.toString('latin1')).not.toContain('SecretCam');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(String(file.headers['content-security-policy'])).toContain('sandbox');
    expect(String(file.headers['content-disposition'])).toMatch(/^inline;/);
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    const thumb = await fetchUrl(r.data.thumb_url!);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(Math.max(...[await sharp(thumb.rawPayload).metadata()].map((m) => m.width!))).toBeLessThanOrEqual(
      320,
    );
    // The list shows it to its owner and to the dealer above, not to the dealer beside.
    const mine = await t.get<{ list: MediaItemRow[] }>(MEDIA_API.pictures, {}, { token: customer.token });
    expect(mine.data.list.map((x) => x.id)).toContain(r.data.id);
    const above = await t.get<{ list: MediaItemRow[] }>(
      MEDIA_API.pictures,
      { keywords: '海报' },
      { token: dealer.token },
    );
    expect(above.data.list.map((x) => x.id)).toContain(r.data.id);
    const beside = await t.get<{ list: MediaItemRow[] }>(MEDIA_API.pictures, {}, { token: other.token });
    expect(beside.data.list.map((x) => x.id)).not.toContain(r.data.id);
  });

  it.each([
    ['HTML named .jpg', HTML_AS_JPG, '网页或脚本'],
    ['a JPEG/HTML polyglot', POLYGLOT_JPEG, '网页或脚本'],
    ['an SVG with a script', SVG_WITH_SCRIPT, '网页或脚本'],
    ['a 100,000 × 100,000 px decompression bomb', bombPng(), '图片尺寸过大（100000×100000）'],
  ])('refuses %s with a clear reason and keeps nothing', async (_label, bytes, reason) => {
    const before = await t.get<MediaQuota>(MEDIA_API.quota, {}, { token: customer.token });
    const r = await upload(customer.token, 'picture', 'evil.jpg', bytes);
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toContain(reason);
    const after = await t.get<MediaQuota>(MEDIA_API.quota, {}, { token: customer.token });
    expect(after.data.items).toBe(before.data.items);
    const left = await t.ctx.db.query('SELECT 1 FROM media_uploads WHERE user_id = $1', [customer.id]);
    expect(left).toHaveLength(0);
  });

  it('refuses a chunk at another offset than what the server holds, saying where to resume', async () => {
    const bytes = await photoJpeg(100, 100);
    const s = await start(customer.token, 'picture', 'p', bytes.length);
    expect((await sendChunk(customer.token, s.data.id, 0, bytes.subarray(0, 100))).code).toBe(200);
    const wrong = await sendChunk(customer.token, s.data.id, 0, bytes.subarray(0, 100));
    expect(wrong.code).toBe(CODE.conflict);
    expect(wrong.data).toMatchObject({ received: 100 });
    // Another account cannot feed or finish it.
    expect((await sendChunk(dealer.token, s.data.id, 100, bytes.subarray(100))).code).toBe(CODE.notFound);
    expect((await finish(customer.token, s.data.id)).message).toContain('尚未传完');
    await t.post(MEDIA_API.uploadCancel, { id: s.data.id }, { token: customer.token });
  });
});

describe('videos', () => {
  let mp4: Buffer;
  beforeAll(() => {
    mp4 = makeVideo('ok.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=25:duration=2',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=2',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
    ]);
  });

  it('resumes an upload whose connection dropped mid-chunk, then probes it and serves ranges', async () => {
    const s = await start(customer.token, 'video', '宣传片', mp4.length, { fingerprint: 'video-ok' });
    const half = Math.floor(mp4.length / 2);
    // First chunk: a quarter, normally.
    expect((await sendChunk(customer.token, s.data.id, 0, mp4.subarray(0, Math.floor(half / 2)))).code).toBe(
      200,
    );
    // Second chunk over a real socket: headers announce the rest, half of it arrives, then the line drops.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    const from = Math.floor(half / 2);
    const rest = mp4.subarray(from);
    await new Promise<void>((resolve) => {
      const sock = net.connect(port, '127.0.0.1', () => {
        sock.write(
          `POST ${MEDIA_API.uploadChunk}?id=${s.data.id}&offset=${from} HTTP/1.1\r\nHost: x\r\nX-Token: ${customer.token}\r\n` +
            `Content-Type: ${MEDIA_CHUNK_TYPE}\r\nContent-Length: ${rest.length}\r\n\r\n`,
        );
        sock.write(rest.subarray(0, Math.floor(rest.length / 2)), () =>
          setTimeout(() => sock.destroy(), 300),
        );
      });
      sock.on('close', () => resolve());
      sock.on('error', () => undefined);
    });
    // The same file chosen again finds the same upload and what the server kept.
    let state: UploadState | undefined;
    for (let i = 0; i < 50; i++) {
      const again = await start(customer.token, 'video', '宣传片', mp4.length, { fingerprint: 'video-ok' });
      state = again.data;
      if (state.received > from) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(state!.id).toBe(s.data.id);
    expect(state!.received).toBeGreaterThan(from);
    expect(state!.received).toBeLessThan(mp4.length);
    // Resume from there.
    const resumed = await sendChunk(
      customer.token,
      s.data.id,
      state!.received,
      mp4.subarray(state!.received),
    );
    expect(resumed.code, resumed.message).toBe(200);
    const done = await finish(customer.token, s.data.id);
    expect(done.code, done.message).toBe(200);
    expect(done.data).toMatchObject({
      kind: 'video',
      width: 320,
      height: 240,
      codec: 'h264/aac',
      mime: 'video/mp4',
      size: mp4.length,
    });
    expect(Math.abs(done.data.duration_ms! - 2000)).toBeLessThan(150);
    expect(done.data.has_thumb).toBe(true);
    // The stored bytes are exactly the file's.
    const whole = await fetchUrl(done.data.file_url!);
    expect(Buffer.compare(whole.rawPayload, mp4)).toBe(0);
    // Seeking: a Range request answers 206 with that slice.
    const part = await fetchUrl(done.data.file_url!, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${mp4.length}`);
    expect(Buffer.compare(part.rawPayload, mp4.subarray(100, 200))).toBe(0);
    const poster = await fetchUrl(done.data.thumb_url!);
    expect(poster.headers['content-type']).toBe('image/webp');
    // A tampered or expired link serves nothing.
    expect((await fetchUrl(done.data.file_url!.replace(/sig=./, 'sig=A'))).json().code).toBe(CODE.notFound);
  });

  it('refuses a video a player cannot decode, naming the codec', async () => {
    const mpeg4 = makeVideo('old.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=10:duration=1',
      '-c:v',
      'mpeg4',
    ]);
    const r = await upload(customer.token, 'video', '老格式', mpeg4);
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toContain('播放器无法播放 MP4 中的 MPEG4 视频编码');
  });

  it('refuses HTML named .mp4', async () => {
    const r = await upload(customer.token, 'video', 'x.mp4', HTML_AS_JPG);
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toContain('不是有效的视频');
  });

  it('accepts VP9 in WebM', async () => {
    const webm = makeVideo('ok.webm', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=10:duration=1',
      '-c:v',
      'libvpx-vp9',
      '-b:v',
      '100k',
    ]);
    const r = await upload(customer.token, 'video', 'VP9', webm);
    expect(r.code, r.message).toBe(200);
    expect(r.data).toMatchObject({ mime: 'video/webm', codec: 'vp9' });
  });
});

describe('texts and URL sources', () => {
  it('adds a notice with its style and validates URL sources with the spec pattern', async () => {
    const text = await t.post<MediaItemRow>(
      MEDIA_API.addText,
      {
        name: '闭馆通知',
        text_body: {
          title: '通知',
          body: '今晚 22:00 闭馆清洁',
          font_size: 64,
          color: '#ffee00',
          background: '#102030',
          scroll_speed: 80,
        },
      },
      { token: customer.token, json: true },
    );
    expect(text.code, text.message).toBe(200);
    expect(text.data.text_body).toMatchObject({ font_size: 64, color: '#ffee00', scroll_speed: 80 });
    const badColour = await t.post(
      MEDIA_API.addText,
      { name: 'x', text_body: { body: 'x', color: 'red' } },
      { token: customer.token, json: true },
    );
    expect(badColour.message).toContain('#RRGGBB');
    for (const url of [
      'rtsp://cam.example/live',
      'mms://m.example/s',
      'ftp://f.example/a.mp4',
      'https://cdn.example/a.jpg',
    ]) {
      const r = await t.post<MediaItemRow>(
        MEDIA_API.addUrl,
        { kind: 'video', name: url, url },
        { token: customer.token },
      );
      expect(r.code, url).toBe(200);
      expect(r.data).toMatchObject({ url, stored: false, file_url: null });
    }
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'http://', 'data:text/html,x']) {
      const r = await t.post(
        MEDIA_API.addUrl,
        { kind: 'picture', name: 'x', url },
        { token: customer.token },
      );
      expect(r.code, url).toBe(CODE.badRequest);
      expect(r.message).toContain('仅支持 http、https、ftp、rtsp、mms');
    }
  });
});

describe('review (审核)', () => {
  let item: MediaItemRow;
  beforeAll(async () => {
    item = (
      await t.post<MediaItemRow>(
        MEDIA_API.addText,
        { name: '审核样例', text_body: { body: '欢迎光临' } },
        { token: customer.token, json: true },
      )
    ).data;
  });

  it('lets the dealer above decide, never the owner nor a dealer beside', async () => {
    const own = await t.post(
      MEDIA_API.reviewDecide,
      { id: item.id, approve: true },
      { token: customer.token, json: true },
    );
    expect(own.code).toBe(CODE.forbidden);
    expect(own.message).toContain('不能审核自己的内容');
    const beside = await t.post(
      MEDIA_API.reviewDecide,
      { id: item.id, approve: true },
      { token: other.token, json: true },
    );
    expect(beside.code).toBe(CODE.notFound);
    const queue = await t.get<{ list: MediaItemRow[] }>(
      MEDIA_API.review,
      { page_size: 100 },
      { token: dealer.token },
    );
    expect(queue.data.list.map((x) => x.id)).toContain(item.id);
    expect((await t.get(MEDIA_API.review, {}, { token: customer.token })).code).toBe(CODE.forbidden);

    const noReason = await t.post(
      MEDIA_API.reviewDecide,
      { id: item.id, approve: false },
      { token: dealer.token, json: true },
    );
    expect(noReason.message).toContain('请填写驳回原因');
    const rejected = await t.post<MediaItemRow>(
      MEDIA_API.reviewDecide,
      { id: item.id, approve: false, reason: '缺少落款' },
      { token: dealer.token, json: true },
    );
    expect(rejected.data).toMatchObject({
      status: MEDIA_STATUS.rejected,
      reject_reason: '缺少落款',
      reviewed_by: dealer.id,
    });
    const approved = await t.post<MediaItemRow>(
      MEDIA_API.reviewDecide,
      { id: item.id, approve: true },
      { token: dealer.token, json: true },
    );
    expect(approved.data).toMatchObject({ status: MEDIA_STATUS.approved, reject_reason: '' });
    const log = await auditOf(t, customer.id);
    const actions = log.filter((e) => e.entity_id === item.id).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['media.reject', 'media.approve']));
  });

  it('puts an edited notice back to 待审核, but not a rename', async () => {
    const renamed = await t.post<MediaItemRow>(
      MEDIA_API.rename,
      { id: item.id, name: '审核样例2' },
      { token: customer.token },
    );
    expect(renamed.data.status).toBe(MEDIA_STATUS.approved);
    const edited = await t.post<MediaItemRow>(
      MEDIA_API.updateText,
      { id: item.id, text_body: { body: '欢迎光临，请保持清洁' } },
      { token: customer.token, json: true },
    );
    expect(edited.data).toMatchObject({ status: MEDIA_STATUS.pending, reviewed_by: null });
  });

  it('lets a developer review anything', async () => {
    const r = await t.post<MediaItemRow>(
      MEDIA_API.reviewDecide,
      { id: item.id, approve: true },
      { token: admin, json: true },
    );
    expect(r.code, r.message).toBe(200);
  });
});

describe('roles, quota, deletion', () => {
  it('keeps accounts without the media role out', async () => {
    expect((await t.get(MEDIA_API.pictures, {}, { token: plain.token })).code).toBe(CODE.forbidden);
    expect(
      (
        await t.post(
          MEDIA_API.uploads,
          { kind: 'picture', name: 'x', size: 10, fingerprint: 'z' },
          { token: plain.token },
        )
      ).code,
    ).toBe(CODE.forbidden);
  });

  it('refuses an upload beyond the quota the dealer set, and shows usage', async () => {
    const q = await t.get<MediaQuota>(MEDIA_API.quota, {}, { token: customer.token });
    expect(q.data.used).toBeGreaterThan(0);
    expect(
      (
        await t.post(
          MEDIA_API.setQuota,
          { target_user_id: customer.id, quota_mb: 1 },
          { token: customer.token },
        )
      ).code,
    ).toBe(CODE.forbidden);
    const set = await t.post<MediaQuota>(
      MEDIA_API.setQuota,
      { target_user_id: customer.id, quota_mb: 1 },
      { token: dealer.token },
    );
    expect(set.data.quota).toBe(1024 * 1024);
    const r = await start(customer.token, 'video', 'big', 2 * 1024 * 1024);
    expect(r.code).toBe(CODE.tooLarge);
    expect(r.message).toContain('存储空间不足');
    await t.post(
      MEDIA_API.setQuota,
      { target_user_id: customer.id, quota_mb: 5120 },
      { token: dealer.token },
    );
  });

  it('deletes an item (its links stop working) unless a live playlist uses it', async () => {
    const pic = await upload(customer.token, 'picture', '待删', await photoJpeg(40, 40));
    const item = pic.data;
    // A playlist that uses it (the players half's table; its items are a jsonb list).
    const [pl] = await t.ctx.db.query<{ id: number }>(
      `INSERT INTO media_playlists (user_id, name, items) VALUES ($1, '大厅轮播', $2) RETURNING id`,
      [customer.id, JSON.stringify([{ media_id: item.id, duration_s: 10 }])],
    );
    const refused = await t.post(MEDIA_API.remove, { id: item.id }, { token: customer.token });
    expect(refused.code).toBe(CODE.conflict);
    expect(refused.message).toContain('大厅轮播');
    await t.ctx.db.query(`UPDATE media_playlists SET is_delete = true WHERE id = $1`, [pl!.id]);
    expect((await t.post(MEDIA_API.remove, { id: item.id }, { token: customer.token })).code).toBe(200);
    expect((await fetchUrl(item.file_url!)).json().code).toBe(CODE.notFound);
    expect((await t.get(MEDIA_API.item, { id: item.id }, { token: customer.token })).code).toBe(
      CODE.notFound,
    );
  });
});
