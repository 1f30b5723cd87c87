// The demo's screens (issue 17): stand-alone players in the demo toilets, a zoned playlist
// with a live data zone, a schedule on them, and simulated players that fetch and play it.
// Everything goes through the console's API as an operator would; content through the
// chunked upload and the review of part A.
import sharp from 'sharp';
import {
  MEDIA_API,
  MEDIA_CHUNK_TYPE,
  MEDIA_PLAYER_API,
  MEDIA_STATUS,
  PERMISSION,
  TOILET_DETAIL_API,
  type MediaItemRow,
  type Page,
  type PlaylistRow,
  type ScheduleRow,
} from '@se/core';
import { ConsoleApi, bindAll, ensureDevices } from './fleet.ts';
import { simulatePlayers } from './players.ts';

const PLAYLIST = '公厕大屏（实时数据）';

export interface DemoPlayersSetup {
  admin: ConsoleApi;
  mqttUrl: string;
  demoUser: { id: number; name: string; password: string };
  /** The demo toilets and their names, in order. */
  toilets: number[];
  names: string[];
}

/** A picture for the demo: a coloured card with a line of text, as PNG. */
const card = (title: string, from: string, to: string) =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
      <rect width="1280" height="720" fill="url(#g)"/>
      <text x="640" y="380" font-size="72" text-anchor="middle" fill="#fff" font-family="sans-serif">${title}</text></svg>`),
  )
    .png()
    .toBuffer();

async function upload(api: ConsoleApi, name: string, bytes: Buffer) {
  const s = await api.call<{ id: string; received: number }>('POST', MEDIA_API.uploads, {
    kind: 'picture',
    name,
    size: bytes.length,
    fingerprint: `demo-${name}-${bytes.length}`,
  });
  if (s.received < bytes.length) {
    const res = await fetch(`${api.base}${MEDIA_API.uploadChunk}?id=${s.id}&offset=${s.received}`, {
      method: 'POST',
      headers: { 'x-token': api.token, 'content-type': MEDIA_CHUNK_TYPE },
      body: new Uint8Array(bytes.subarray(s.received)),
    });
    const env = (await res.json()) as { code: number; message: string };
    if (env.code !== 200) throw new Error(`upload ${name}: ${env.message}`);
  }
  await api.call('POST', MEDIA_API.uploadFinish, { id: s.id });
}

/** The demo tenant's approved content, uploaded and reviewed the first time. */
async function ensureContent(admin: ConsoleApi, demo: ConsoleApi, demoId: number) {
  const mine = async () => {
    const lists = await Promise.all(
      [MEDIA_API.pictures, MEDIA_API.texts, MEDIA_API.videos].map((u) =>
        demo.call<Page<MediaItemRow>>('GET', u, { page_size: 100 }),
      ),
    );
    return lists.flatMap((l) => l.list);
  };
  let items = await mine();
  if (!items.some((i) => i.kind === 'picture')) {
    await upload(demo, '欢迎来到智慧公厕', await card('欢迎来到智慧公厕', '#1677ff', '#13c2c2'));
    await upload(demo, '文明如厕 人人有责', await card('文明如厕 人人有责', '#52c41a', '#237804'));
  }
  if (!items.some((i) => i.kind === 'text')) {
    await demo.call('POST', MEDIA_API.addText, {
      name: '开放时间',
      text_body: {
        title: '开放时间',
        body: '每日 05:30–23:00 开放，夜间请前往临近公厕。',
        font_size: 56,
        scroll_speed: 0,
      },
    });
    await demo.call('POST', MEDIA_API.addText, {
      name: '节水提示',
      text_body: {
        title: '',
        body: '节约用水，随手关闭水龙头。',
        font_size: 48,
        color: '#ffe58f',
        scroll_speed: 80,
      },
    });
  }
  items = await mine();
  for (const i of items.filter((x) => x.status === MEDIA_STATUS.pending && x.user_id === demoId))
    await admin.call('POST', MEDIA_API.reviewDecide, { id: i.id, approve: true });
  return (await mine()).filter((i) => i.status === MEDIA_STATUS.approved);
}

/** Sets up the demo's screens and starts their simulators (runs until the process ends). */
export async function demoPlayers(s: DemoPlayersSetup) {
  const { admin } = s;
  // The demo tenant runs its own screens: the media role on top of its dealer rights.
  await admin.call('POST', '/api/v1/user/update-user', {
    id: s.demoUser.id,
    permissions:
      PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor | PERMISSION.dataView | PERMISSION.media,
  });
  const demo = await new ConsoleApi(admin.base).login(s.demoUser.name, s.demoUser.password);
  const count = Math.min(4, s.toilets.length);
  const players = await ensureDevices(admin, 'player', 'DEMO-PLY', count, (i) => `${s.names[i]}大屏`);
  await bindAll(
    admin,
    'player',
    s.demoUser.id,
    players.map((p) => p.id),
  );
  // Each player hangs in the toilet it is named after: its live data zone shows that toilet.
  for (const p of players) {
    const n = Number(p.ser_num.slice(p.ser_num.lastIndexOf('-') + 1)) - 1;
    await admin.call('POST', TOILET_DETAIL_API.place, {
      toilet_id: s.toilets[n],
      add_ids: String(p.id),
      remove_ids: '',
    });
  }

  const content = await ensureContent(admin, demo, s.demoUser.id);
  const have = await demo.call<Page<PlaylistRow>>('GET', MEDIA_PLAYER_API.playlists, { keywords: PLAYLIST });
  let playlist = have.list.find((p) => p.name === PLAYLIST);
  if (!playlist && content.length) {
    playlist = await demo.call<PlaylistRow>('POST', MEDIA_PLAYER_API.addPlaylist, {
      name: PLAYLIST,
      layout: 'zones',
      transition: 'fade',
      ticker: '温馨提示：请保持厕所清洁，爱护公共设施。扫码即可评价本公厕。',
      items: content.map((c) => ({ media_id: c.id, duration_s: c.kind === 'text' ? 8 : 6 })),
    });
  }
  const schedules = await demo.call<Page<ScheduleRow>>('GET', MEDIA_PLAYER_API.schedules, {
    keywords: '日常播放',
  });
  if (playlist && !schedules.list.length) {
    await demo.call('POST', MEDIA_PLAYER_API.addSchedule, {
      name: '日常播放',
      playlist_id: playlist.id,
      priority: 1,
      player_ids: players.map((p) => p.id),
    });
  }
  await simulatePlayers({
    mqttUrl: s.mqttUrl,
    httpBase: admin.base,
    players,
    reportEveryS: 10,
    dropPerMinute: 0.1,
  });
  console.log(`${players.length} simulated players play「${PLAYLIST}」`);
}
