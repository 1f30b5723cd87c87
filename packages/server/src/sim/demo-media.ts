// The demo's media libraries (issue 17): a few posters, a short generated video and notices
// for the demo tenant, uploaded through the same chunked-upload API a browser uses and
// approved (审核) by the admin, so the players' playlists can use them at once.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  MEDIA_API,
  MEDIA_CHUNK_TYPE,
  PERMISSION,
  USER_API,
  type MediaItemRow,
  type UploadState,
} from '@se/core';
import sharp from 'sharp';
import type { ConsoleApi } from './fleet.ts';

const POSTERS: [string, string, string, string][] = [
  ['文明如厕 从我做起', '#0b6e4f', '#f2c14e', '请保持地面干燥，便后冲水'],
  ['节约用水 人人有责', '#1d3557', '#a8dadc', '洗手后请随手关闭水龙头'],
  ['智慧公厕 扫码评价', '#6a040f', '#ffba08', '您的评价让服务更好'],
];

const NOTICES: [
  string,
  { title: string; body: string; font_size: number; color: string; background: string; scroll_speed: number },
][] = [
  [
    '闭馆清洁通知',
    {
      title: '通知',
      body: '每晚 22:00—22:30 闭馆清洁，给您带来不便敬请谅解。',
      font_size: 64,
      color: '#ffffff',
      background: '#1d3557',
      scroll_speed: 0,
    },
  ],
  [
    '温馨提示滚动条',
    {
      title: '',
      body: '温馨提示：请爱护公共设施，保持环境卫生。如需帮助请联系现场保洁员或扫码反馈。',
      font_size: 48,
      color: '#ffe066',
      background: '#000000',
      scroll_speed: 120,
    },
  ],
];

function poster(title: string, bg: string, fg: string, line: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080">
    <rect width="100%" height="100%" fill="${bg}"/>
    <circle cx="1650" cy="220" r="160" fill="${fg}" opacity="0.35"/>
    <text x="50%" y="46%" text-anchor="middle" font-family="Noto Sans CJK SC, WenQuanYi Zen Hei, sans-serif" font-size="130" font-weight="700" fill="${fg}">${title}</text>
    <text x="50%" y="62%" text-anchor="middle" font-family="Noto Sans CJK SC, WenQuanYi Zen Hei, sans-serif" font-size="64" fill="#ffffff">${line}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** A 6-second 640×360 H.264/AAC clip made by ffmpeg, or null when ffmpeg is not installed. */
async function clip(): Promise<Buffer | null> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'demo-media-'));
  const file = path.join(dir, 'demo.mp4');
  try {
    await new Promise<void>((resolve, reject) =>
      execFile(
        'ffmpeg',
        [
          '-v',
          'error',
          '-y',
          '-f',
          'lavfi',
          '-i',
          'testsrc2=size=640x360:rate=25:duration=6',
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=523:duration=6',
          '-c:v',
          'libx264',
          '-pix_fmt',
          'yuv420p',
          '-c:a',
          'aac',
          '-b:a',
          '64k',
          '-shortest',
          '-movflags',
          '+faststart',
          file,
        ],
        (err) => (err ? reject(err) : resolve()),
      ),
    );
    return await readFile(file);
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function upload(
  api: ConsoleApi,
  userId: number,
  kind: 'picture' | 'video',
  name: string,
  bytes: Buffer,
) {
  const s = await api.call<UploadState>('POST', MEDIA_API.uploads, {
    kind,
    name,
    size: bytes.length,
    fingerprint: `demo:${name}:${bytes.length}`,
    target_user_id: userId,
  });
  for (let at = s.received; at < bytes.length; at += s.chunk_bytes) {
    await api.call('POST', `${MEDIA_API.uploadChunk}?id=${s.id}&offset=${at}`, undefined, {
      type: MEDIA_CHUNK_TYPE,
      data: new Uint8Array(bytes.subarray(at, at + s.chunk_bytes)),
    });
  }
  return api.call<MediaItemRow>('POST', MEDIA_API.uploadFinish, { id: s.id });
}

/**
 * Gives the demo tenant the media role and, once, its content (approved by the admin).
 * `admin` is signed in as admin.
 */
export async function seedMedia(admin: ConsoleApi, demoUserId: number) {
  const users = await admin.call<{ list: { id: number; permissions: number }[] }>('GET', USER_API.list, {
    keywords: 'demo',
    keys: 'user_name',
  });
  const demo = users.list.find((u) => u.id === demoUserId);
  if (demo && (demo.permissions & PERMISSION.media) === 0) {
    await admin.call('POST', USER_API.update, {
      id: demoUserId,
      permissions: demo.permissions | PERMISSION.media,
    });
  }
  const have = await admin.call<{ total: number }>('GET', MEDIA_API.pictures, { user_id: demoUserId });
  if (have.total > 0) return;
  const items: MediaItemRow[] = [];
  for (const [title, bg, fg, line] of POSTERS) {
    items.push(
      await upload(
        admin,
        demoUserId,
        'picture',
        title.replace(/\s+/g, ''),
        await poster(title, bg, fg, line),
      ),
    );
  }
  const video = await clip();
  if (video) items.push(await upload(admin, demoUserId, 'video', '演示宣传片', video));
  else console.warn('demo media: ffmpeg is not installed, the demo has no video');
  for (const [name, text_body] of NOTICES) {
    items.push(
      await admin.call<MediaItemRow>('POST', MEDIA_API.addText, {
        name,
        text_body,
        target_user_id: demoUserId,
      }),
    );
  }
  for (const item of items) await admin.call('POST', MEDIA_API.reviewDecide, { id: item.id, approve: true });
}
