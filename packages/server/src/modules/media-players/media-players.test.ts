import crypto from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  MEDIA_API,
  MEDIA_PLAYER_API,
  MEDIA_STATUS,
  PERMISSION,
  TOPIC,
  type MediaPlayerRow,
  type PlayReportRow,
  type PlaylistRow,
  type ScheduleRow,
} from '@se/core';
import {
  addDevice,
  addToilet,
  adminApp,
  auditOf,
  kindUrl,
  sendReport,
  type Account,
  type TestApp,
  type TestDevice,
} from '../../test/harness.ts';
import { storage } from '../files/storage.ts';
import { insertItem } from '../media/repo.ts';
import type { Manifest } from './manifest.ts';

let t: TestApp;
let admin: string;
let mqttUrl: string;
let owner: Account;
let stranger: Account;
let player: TestDevice;
let gateway: TestDevice;
let picture: number;
let notice: number;

/** A screen operator: media, plus user to register and operate devices (modules/access). */
const MEDIA_USER = PERMISSION.media | PERMISSION.user | PERMISSION.visitor;
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  crypto.randomBytes(2000),
  Buffer.from([0xff, 0xd9]),
]);

const connect = (d: TestDevice) =>
  mqtt.connectAsync(mqttUrl, {
    clientId: d.ser_num,
    username: d.ser_num,
    password: d.token,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });

interface Down {
  command_id: number;
  type: string;
  op: number | null;
  payload: Manifest & Record<string, unknown>;
}

/** Listens on the device's down topic and gives every command it receives, in order. */
async function listen(d: TestDevice) {
  const c = await connect(d);
  const got: Down[] = [];
  const waiters: (() => void)[] = [];
  c.on('message', (_t, p) => {
    got.push(JSON.parse(p.toString()) as Down);
    waiters.splice(0).forEach((w) => w());
  });
  await c.subscribeAsync(TOPIC.down(d.ser_num), { qos: 1 });
  const next = async (type: string, after = 0) => {
    for (;;) {
      const m = got.slice(after).find((x) => x.type === type);
      if (m) return m;
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { c, got, next };
}

const screen = async (id: number, token = owner.token) =>
  (await t.get<MediaPlayerRow>(MEDIA_PLAYER_API.player, { id }, { token })).data;

beforeAll(async () => {
  ({ t, admin } = await adminApp({ mqttPort: 0, host: '127.0.0.1' }));
  mqttUrl = `mqtt://127.0.0.1:${t.ctx.broker!.port}`;
  owner = await t.account('mp_owner', MEDIA_USER, 1);
  stranger = await t.account('mp_stranger', MEDIA_USER, 1);
  player = await addDevice(t, 'player', 'MP-PLAYER-1', owner.token);
  gateway = await addDevice(t, 'gateway', 'MP-GW43-1', owner.token, { type: 43 });
  await addDevice(t, 'gateway', 'MP-GW40-1', owner.token, { type: 40 });
  await addDevice(t, 'jwb', 'MP-JWB-1', owner.token); // not a screen
  // A stored picture, already approved (upload and review are part A's tests).
  const put = await storage(t.ctx).put(`test/${crypto.randomUUID()}.jpg`, JPEG, {
    contentType: 'image/jpeg',
  });
  picture = await insertItem(t.ctx.db, {
    user_id: owner.id,
    kind: 'picture',
    name: '欢迎图',
    storage_key: put.key,
    mime: 'image/jpeg',
    size: put.size,
    sha256: put.sha256,
    status: MEDIA_STATUS.approved,
  });
  // A notice through part A's API, approved by the reviewer above (admin).
  const text = await t.post<{ id: number }>(
    MEDIA_API.addText,
    { name: '闭馆通知', text_body: { body: '今日 22:00 闭馆' } },
    { token: owner.token, json: true },
  );
  notice = text.data.id;
  const ok = await t.post(
    MEDIA_API.reviewDecide,
    { id: notice, approve: true },
    { token: admin, json: true },
  );
  expect(ok.code).toBe(200);
});

afterAll(() => t.close());

describe('screens', () => {
  it('lists stand-alone players and screen gateways in one list, filterable by type', async () => {
    const all = await t.get<{ list: MediaPlayerRow[]; total: number }>(
      MEDIA_PLAYER_API.players,
      {},
      { token: owner.token },
    );
    expect(all.data.list.map((s) => s.ser_num).sort()).toEqual(['MP-GW40-1', 'MP-GW43-1', 'MP-PLAYER-1']);
    const players = await t.get<{ list: MediaPlayerRow[] }>(
      MEDIA_PLAYER_API.players,
      { type: 'player' },
      { token: owner.token },
    );
    expect(players.data.list.map((s) => s.ser_num)).toEqual(['MP-PLAYER-1']);
    const gw = await t.get<{ list: MediaPlayerRow[] }>(
      MEDIA_PLAYER_API.players,
      { type: '43' },
      { token: owner.token },
    );
    expect(gw.data.list.map((s) => s.ser_num)).toEqual(['MP-GW43-1']);
  });

  it('another media user sees none of them and cannot command them', async () => {
    const list = await t.get<{ list: MediaPlayerRow[] }>(
      MEDIA_PLAYER_API.players,
      {},
      { token: stranger.token },
    );
    expect(list.data.list).toEqual([]);
    expect((await t.get(MEDIA_PLAYER_API.player, { id: player.id }, { token: stranger.token })).code).toBe(
      CODE.notFound,
    );
    const cmd = await t.post(
      MEDIA_PLAYER_API.command,
      { id: player.id, op: 'restart' },
      { token: stranger.token },
    );
    expect(cmd.code).toBe(CODE.notFound);
  });

  it('a media account without the user bit registers and runs its own players, and only players', async () => {
    const media = await t.account('mp_media_only', PERMISSION.media, 1);
    const own = await addDevice(t, 'player', 'MP-MEDIA-ONLY-1', media.token);
    const cmd = await t.post(MEDIA_PLAYER_API.command, { id: own.id, op: 'restart' }, { token: media.token });
    expect(cmd.code).toBe(200);
    const jwb = await t.post(kindUrl('jwb', 'add'), { ser_num: 'MP-MEDIA-JWB' }, { token: media.token });
    expect(jwb.code).toBe(CODE.forbidden);
  });

  it('refuses an account without the media role', async () => {
    const dealer = await t.account('mp_dealer', PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor, 1);
    const r = await t.get(MEDIA_PLAYER_API.players, {}, { token: dealer.token });
    expect(r.code).toBe(CODE.forbidden);
  });

  it('sends a volume command down and marks it done on the reply', async () => {
    const l = await listen(player);
    const sent = await t.post<{ command_id: number }>(
      MEDIA_PLAYER_API.command,
      { id: player.id, op: 'volume', volume: 35 },
      { token: owner.token },
    );
    expect(sent.code).toBe(200);
    const cmd = await l.next('player');
    expect(cmd).toMatchObject({ command_id: sent.data.command_id, op: 1, payload: { volume: 35 } });
    await l.c.publishAsync(
      TOPIC.up(player.ser_num),
      JSON.stringify({
        id: 'v1',
        ts: Date.now(),
        type: 'reply',
        command_id: cmd.command_id,
        ok: true,
        result: '音量 35',
      }),
      { qos: 1 },
    );
    const list = await t.get<{ list: { id: number; status: string }[] }>(
      '/api/v1/device/commands',
      { device_id: player.id },
      { token: owner.token },
    );
    expect(list.data.list.find((c) => c.id === cmd.command_id)?.status).toBe('done');
    await l.c.endAsync();
  });

  it('refuses a volume out of range with a Chinese reason', async () => {
    const r = await t.post(
      MEDIA_PLAYER_API.command,
      { id: player.id, op: 'volume', volume: 150 },
      { token: owner.token },
    );
    expect(r).toMatchObject({ code: CODE.badRequest, message: '音量为 0–100' });
  });
});

describe('playlists, schedules and manifests', () => {
  let playlist: PlaylistRow;

  it('refuses content that has not passed review', async () => {
    const pending = await insertItem(t.ctx.db, {
      user_id: owner.id,
      kind: 'text',
      name: '待审通知',
      text_body: {
        title: '',
        body: 'x',
        font_size: 48,
        color: '#ffffff',
        background: '#000000',
        scroll_speed: 0,
      },
    });
    const r = await t.post(
      MEDIA_PLAYER_API.addPlaylist,
      { name: '未审', items: [{ media_id: pending, duration_s: 5 }] },
      { token: owner.token, json: true },
    );
    expect(r).toMatchObject({ code: CODE.badRequest, message: '「待审通知」未通过审核，不能加入播放列表' });
  });

  it("refuses another user's content", async () => {
    const r = await t.post(
      MEDIA_PLAYER_API.addPlaylist,
      { name: '偷用', items: [{ media_id: picture, duration_s: 5 }] },
      { token: stranger.token, json: true },
    );
    expect(r.code).toBe(CODE.notFound);
  });

  it('makes a zoned playlist of approved items in order', async () => {
    const r = await t.post<PlaylistRow>(
      MEDIA_PLAYER_API.addPlaylist,
      {
        name: '大厅屏',
        layout: 'zones',
        transition: 'fade',
        ticker: '文明如厕',
        items: [
          { media_id: picture, duration_s: 8 },
          { media_id: notice, duration_s: 12 },
        ],
      },
      { token: owner.token, json: true },
    );
    expect(r.code).toBe(200);
    playlist = r.data;
    expect(playlist.items.map((i) => [i.name, i.duration_s])).toEqual([
      ['欢迎图', 8],
      ['闭馆通知', 12],
    ]);
    expect(playlist.total_s).toBe(20);
    expect((await auditOf(t, owner.id)).map((e) => e.action)).toContain('media.playlist.add');
  });

  it('refuses deleting content a live playlist uses (part A asks our playlists)', async () => {
    const r = await t.post(MEDIA_API.remove, { id: picture }, { token: owner.token, json: true });
    expect(r.code).not.toBe(200);
    expect(r.message).toContain('大厅屏');
  });

  it("refuses scheduling on a screen the user may not operate, or with another user's playlist", async () => {
    const mine = await insertItem(t.ctx.db, {
      user_id: stranger.id,
      kind: 'picture',
      name: '他的图',
      url: 'https://example.com/a.jpg',
      status: MEDIA_STATUS.approved,
    });
    const own = await t.post<PlaylistRow>(
      MEDIA_PLAYER_API.addPlaylist,
      { name: '他的列表', items: [{ media_id: mine, duration_s: 5 }] },
      { token: stranger.token, json: true },
    );
    expect(own.code).toBe(200);
    const onTheirs = await t.post(
      MEDIA_PLAYER_API.addSchedule,
      { name: 'x', playlist_id: own.data.id, player_ids: [player.id] },
      { token: stranger.token, json: true },
    );
    expect(onTheirs).toMatchObject({ code: CODE.notFound, message: `播放器 ${player.id} 不存在或无权操作` });
    const notMine = await t.post(
      MEDIA_PLAYER_API.addSchedule,
      { name: 'x', playlist_id: playlist.id, player_ids: [player.id] },
      { token: stranger.token, json: true },
    );
    expect(notMine.code).not.toBe(200);
  });

  it('delivers the manifest to a player that was offline when it was published, once it reconnects', async () => {
    const s = await t.post<ScheduleRow>(
      MEDIA_PLAYER_API.addSchedule,
      {
        name: '日常',
        playlist_id: playlist.id,
        priority: 1,
        weekdays: 127,
        time_from: '06:00',
        time_to: '23:00',
        player_ids: [player.id, gateway.id],
      },
      { token: owner.token, json: true },
    );
    expect(s.code).toBe(200);
    expect(s.data.players).toBe('MP-PLAYER-1,MP-GW43-1');
    expect((await screen(player.id)).delivery_state).toBe('sent'); // 已下发, nobody listening yet

    const l = await listen(player);
    const m = await l.next('manifest');
    expect(m.payload.schedules).toEqual([
      expect.objectContaining({
        id: s.data.id,
        playlist_id: playlist.id,
        priority: 1,
        time_from: '06:00',
        emergency: false,
      }),
    ]);
    const [pl] = m.payload.playlists;
    expect(pl).toMatchObject({ id: playlist.id, layout: 'zones', transition: 'fade', ticker: '文明如厕' });
    expect(pl!.items.map((i) => i.kind)).toEqual(['picture', 'text']);
    expect(pl!.items[1]!.text).toMatchObject({ body: '今日 22:00 闭馆' });

    // The picture's link is signed for this player: it downloads the very bytes, checksum included.
    const link = pl!.items[0]!;
    const file = await t.app.inject({ method: 'GET', url: link.url! });
    expect(file.statusCode).toBe(200);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toMatch(/^attachment/);
    expect(crypto.createHash('sha256').update(file.rawPayload).digest('hex')).toBe(link.sha256);
    // …and not for another screen, nor with a changed signature.
    const other = link.url!.replace(`d=${player.id}`, `d=${gateway.id}`);
    expect((await t.app.inject({ method: 'GET', url: other })).json()).toMatchObject({ code: CODE.notFound });
    const forged = link.url!.replace(/s=[^&]+/, 's=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await t.app.inject({ method: 'GET', url: forged })).json()).toMatchObject({
      code: CODE.notFound,
    });

    // Progress, then playing: the console shows 下载中 50%, then 播放中 and what is on screen.
    await sendReport(t, player, { manifest: { id: m.command_id, state: 'downloading', progress: 50 } });
    expect(await screen(player.id)).toMatchObject({ delivery_state: 'downloading', delivery_progress: 50 });
    await sendReport(t, player, {
      manifest: { id: m.command_id, state: 'playing' },
      now_item: picture,
      volume: 35,
      resolution: '1920x1080',
    });
    expect(await screen(player.id)).toMatchObject({
      delivery_state: 'playing',
      now_item_name: '欢迎图',
      latest: expect.objectContaining({ volume: 35, resolution: '1920x1080' }),
    });
    // A late report about an older manifest changes nothing.
    await sendReport(t, player, { manifest: { id: m.command_id - 1, state: 'failed', error: '旧清单' } });
    expect((await screen(player.id)).delivery_state).toBe('playing');
    await l.c.endAsync();
  });

  it('shows a failure with its reason', async () => {
    const l = await listen(gateway);
    const m = await l.next('manifest');
    await sendReport(t, gateway, { manifest: { id: m.command_id, state: 'failed', error: '存储空间不足' } });
    expect(await screen(gateway.id)).toMatchObject({
      delivery_state: 'failed',
      delivery_error: '存储空间不足',
    });
    await l.c.endAsync();
  });

  it('pushes an emergency notice at once and takes it back when withdrawn', async () => {
    const l = await listen(player);
    const before = l.got.length;
    const e = await t.post<ScheduleRow>(
      MEDIA_PLAYER_API.addSchedule,
      { name: '紧急疏散', playlist_id: playlist.id, emergency: true, player_ids: [player.id] },
      { token: owner.token, json: true },
    );
    expect(e.code).toBe(200);
    const withIt = await l.next('manifest', before);
    expect(withIt.payload.schedules.find((s) => s.emergency)?.id).toBe(e.data.id);
    const n = l.got.length;
    const w = await t.post(
      MEDIA_PLAYER_API.updateSchedule,
      { id: e.data.id, is_delete: true },
      { token: owner.token },
    );
    expect(w.code).toBe(200);
    const without = await l.next('manifest', n);
    expect(without.payload.schedules.some((s) => s.emergency)).toBe(false);
    expect((await auditOf(t, owner.id)).map((a) => a.action)).toContain('media.schedule.delete');
    await l.c.endAsync();
  });

  it('schedules on a player group: members get it, a player added to the group later too', async () => {
    const second = await addDevice(t, 'player', 'MP-PLAYER-2', owner.token);
    const third = await addDevice(t, 'player', 'MP-PLAYER-3', owner.token);
    const g = await t.post<{ id: number; players: string }>(
      MEDIA_PLAYER_API.addGroup,
      { name: '大厅', player_ids: [second.id] },
      { token: owner.token, json: true },
    );
    expect(g).toMatchObject({ code: 200, data: { players: 'MP-PLAYER-2' } });
    const l2 = await listen(second);
    const l3 = await listen(third);
    const s = await t.post<ScheduleRow>(
      MEDIA_PLAYER_API.addSchedule,
      { name: '分组排期', playlist_id: playlist.id, group_ids: [g.data.id] },
      { token: owner.token, json: true },
    );
    expect(s).toMatchObject({ code: 200, data: { groups: '大厅', player_ids: [] } });
    expect((await l2.next('manifest')).payload.schedules.map((x) => x.id)).toEqual([s.data.id]);
    // The group grows: the new member gets a manifest with the group's schedule.
    const grown = await t.post(
      MEDIA_PLAYER_API.updateGroup,
      { id: g.data.id, player_ids: [second.id, third.id] },
      { token: owner.token, json: true },
    );
    expect(grown.code).toBe(200);
    expect((await l3.next('manifest')).payload.schedules.map((x) => x.id)).toEqual([s.data.id]);
    // A group a live schedule uses is not deleted; neither players nor groups: refused.
    const del = await t.post(
      MEDIA_PLAYER_API.updateGroup,
      { id: g.data.id, is_delete: true },
      { token: owner.token },
    );
    expect(del).toMatchObject({
      code: CODE.badRequest,
      message: '该分组正在排期中使用，请先修改或撤销相关排期',
    });
    const none = await t.post(
      MEDIA_PLAYER_API.addSchedule,
      { name: '空', playlist_id: playlist.id },
      { token: owner.token, json: true },
    );
    expect(none).toMatchObject({ code: CODE.badRequest, message: '请选择播放器或播放器分组' });
    await l2.c.endAsync();
    await l3.c.endAsync();
  });

  it('serves the live data zone of the screen’s toilet through its signed link', async () => {
    const tid = await addToilet(t, owner.token, { name: '西湖公厕', gateway_id: gateway.id });
    expect(tid).toBeGreaterThan(0);
    await sendReport(t, gateway, { nh3: 0.3, male_count: 4, male_occupy: 1 });
    const l = await listen(gateway);
    await t.post(MEDIA_PLAYER_API.publish, { player_ids: String(gateway.id) }, { token: owner.token });
    const m = await l.next('manifest', l.got.length);
    const live = await t.app.inject({ method: 'GET', url: m.payload.playlists[0]!.live! });
    expect(live.json()).toMatchObject({
      code: 200,
      data: { toilet_name: '西湖公厕', nh3: 0.3, occupancy: { male: { occupy: 1, count: 4 } } },
    });
    await l.c.endAsync();
  });
});

describe('proof of play', () => {
  it('counts plays and seconds per item and per player, once per play however often it is resent', async () => {
    const start = Math.floor(Date.now() / 1000) - 60;
    const plays = [
      { item: picture, start, duration: 8 },
      { item: notice, start: start + 8, duration: 12 },
      { item: picture, start: start + 20, duration: 8 },
    ];
    await sendReport(t, player, { plays });
    await sendReport(t, player, { plays: plays.slice(0, 1) }); // resent: stored once
    const byItem = await t.get<{ list: PlayReportRow[] }>(
      MEDIA_PLAYER_API.playReport,
      { by: 'item' },
      { token: owner.token },
    );
    expect(byItem.data.list.map((r) => [r.name, r.plays, r.seconds])).toEqual([
      ['欢迎图', 2, 16],
      ['闭馆通知', 1, 12],
    ]);
    const byPlayer = await t.get<{ list: PlayReportRow[] }>(
      MEDIA_PLAYER_API.playReport,
      { by: 'player' },
      { token: owner.token },
    );
    expect(byPlayer.data.list).toEqual([expect.objectContaining({ id: player.id, plays: 3, seconds: 28 })]);
    // Another media user's report does not include these screens.
    const theirs = await t.get<{ list: PlayReportRow[] }>(
      MEDIA_PLAYER_API.playReport,
      { by: 'player' },
      { token: stranger.token },
    );
    expect(theirs.data.list).toEqual([]);
  });
});
