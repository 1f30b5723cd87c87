import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { CODE, LIVE_API, TOILET_API, WS_TYPE, formatDateTime } from '@se/core';
import { offlineSweep } from '../../jobs/scheduler.ts';
import { addDevice, addToilet, sendReport, testApp, type Account, type TestApp } from '../../test/harness.ts';
import { historyCacheOf } from './history-cache.ts';
import { fiveMinuteBuckets } from './repo.ts';

let t: TestApp;
let owner: Account;
let stranger: Account;
let gw: { id: number; ser_num: string; token: string };
let jwb: { id: number; ser_num: string; token: string };
let toilet: number;
let base: string;

const activeAlarms = async (token: string, deviceId: number) =>
  (
    await t.get<{ list: { type: string; status: string; message: string; toilet_id: number | null }[] }>(
      LIVE_API.alarms,
      { device_id: deviceId, status: 'all' },
      { token },
    )
  ).data.list;

beforeAll(async () => {
  t = await testApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws`;

  owner = await t.account('live_owner', 7);
  stranger = await t.account('live_stranger', 7);
  gw = await addDevice(t, 'gateway', 'LIVE-GW', owner.token);
  jwb = await addDevice(t, 'jwb', 'LIVE-JWB', owner.token);
  toilet = await addToilet(t, owner.token, { name: '报警厕所', gateway_id: gw.id });
});
afterAll(() => t.close());

describe('alarm lifecycle', () => {
  it('opens one air alarm per device while NH3 stays poor, flags the toilet, and closes on clear', async () => {
    await sendReport(t, gw, { nh3: 2.1 });
    await sendReport(t, gw, { nh3: 3.0 });
    let alarms = await activeAlarms(owner.token, gw.id);
    expect(alarms.filter((a) => a.type === 'air')).toHaveLength(1);
    // The place: the toilet the gateway serves (an alarm links to it).
    expect(alarms[0]).toMatchObject({ status: 'open', message: '氨气 2.1 超过 1.5', toilet_id: toilet });
    const t1 = await t.get<{ status: number }>(TOILET_API.get, { id: toilet }, { token: owner.token });
    expect(t1.data.status & 4).toBe(4);
    await sendReport(t, gw, { nh3: 0.2 });
    alarms = await activeAlarms(owner.token, gw.id);
    expect(alarms.map((a) => a.status)).toEqual(['closed']);
    const t2 = await t.get<{ status: number }>(TOILET_API.get, { id: toilet }, { token: owner.token });
    expect(t2.data.status & 4).toBe(0);
  });

  it('raises fire and help alarms and dispenser warnings; acknowledgement is recorded', async () => {
    await sendReport(t, gw, { smk_alarm: 1, alarm: 1 });
    await sendReport(t, jwb, { warning: 32768 | 4 });
    const types = (
      await t.get<{ list: { type: string }[] }>(LIVE_API.alarms, undefined, { token: owner.token })
    ).data.list.map((a) => a.type);
    expect(types.sort()).toEqual(['fire', 'help', 'warning']);
    const w = (await activeAlarms(owner.token, jwb.id))[0]!;
    expect(w.message).toBe('设备告警：缺液、断水');
    const count = await t.get<{ open: number; active: number }>(LIVE_API.alarmCount, undefined, {
      token: owner.token,
    });
    expect(count.data).toEqual({ open: 3, active: 3 });
    const list = await t.get<{ list: { id: number; type: string }[] }>(
      LIVE_API.alarms,
      { type: 'fire' },
      { token: owner.token },
    );
    const acked = await t.post<{ status: string; acked_by_name: string }>(
      LIVE_API.ackAlarm,
      { id: list.data.list[0]!.id },
      { token: owner.token },
    );
    expect(acked.data).toMatchObject({ status: 'acked', acked_by_name: 'live_owner' });
    expect(
      (await t.get<{ open: number }>(LIVE_API.alarmCount, undefined, { token: owner.token })).data.open,
    ).toBe(2);
  });

  it('never shows or acknowledges another tenant alarm', async () => {
    expect(
      (await t.get<{ total: number }>(LIVE_API.alarms, undefined, { token: stranger.token })).data.total,
    ).toBe(0);
    const any = await t.get<{ list: { id: number }[] }>(LIVE_API.alarms, undefined, { token: owner.token });
    expect(
      (await t.post(LIVE_API.ackAlarm, { id: any.data.list[0]!.id }, { token: stranger.token })).code,
    ).toBe(CODE.notFound);
    expect((await t.get(LIVE_API.alarms, { device_id: gw.id }, { token: stranger.token })).code).toBe(
      CODE.notFound,
    );
  });

  it("names a paper dispenser's warning bits (缺纸, 卡纸) in its alarm and closes it once refilled", async () => {
    const paper = await addDevice(t, 'paper_machine', 'LIVE-PM', owner.token);
    await sendReport(t, paper, { level: 0, warning: 1 | 2 });
    let alarms = await activeAlarms(owner.token, paper.id);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ type: 'warning', status: 'open', message: '设备告警：缺纸、卡纸' });
    await sendReport(t, paper, { level: 100, warning: 0 });
    alarms = await activeAlarms(owner.token, paper.id);
    expect(alarms.map((a) => a.status)).toEqual(['closed']);
  });

  it('opens an offline alarm in the sweep and closes it with the next report', async () => {
    await t.ctx.db.query(`UPDATE devices SET time = now() - interval '6 hours' WHERE id = $1`, [jwb.id]);
    await offlineSweep(t.ctx);
    expect(
      (await activeAlarms(owner.token, jwb.id)).filter((a) => a.type === 'offline' && a.status === 'open'),
    ).toHaveLength(1);
    await offlineSweep(t.ctx);
    expect((await activeAlarms(owner.token, jwb.id)).filter((a) => a.type === 'offline')).toHaveLength(1);
    await sendReport(t, jwb, { liquid: 300 });
    expect((await activeAlarms(owner.token, jwb.id)).find((a) => a.type === 'offline')!.status).toBe(
      'closed',
    );
  });
});

describe('history', () => {
  it('averages raw reports per bucket and answers the fields it has', async () => {
    const now = Date.now();
    for (let i = 0; i < 6; i++)
      await sendReport(t, gw, { co2: 600 + i * 10, pm25: 30 }, now - 30 * 60_000 + i * 60_000);
    const r = await t.get<{ source: string; fields: string[]; points: Record<string, number>[] }>(
      LIVE_API.history,
      { device_id: gw.id, range: '1h' },
      { token: owner.token },
    );
    expect(r.data.source).toBe('raw');
    expect(r.data.fields).toEqual(expect.arrayContaining(['co2', 'pm25', 'nh3']));
    const co2 = r.data.points.flatMap((p) => (p.co2 === undefined ? [] : [p.co2]));
    expect(co2.length).toBeGreaterThanOrEqual(6);
    expect(Math.min(...co2)).toBe(600);
  });

  it('reads the hourly rollup for 30 days with exact averages', async () => {
    const r = await t.get<{ source: string; points: Record<string, number>[] }>(
      LIVE_API.history,
      { device_id: gw.id, range: '30d' },
      { token: owner.token },
    );
    expect(r.data.source).toBe('hourly');
    const pm = r.data.points.filter((p) => p.pm25 !== undefined);
    expect(pm.every((p) => p.pm25 === 30)).toBe(true);
    const [row] = await t.ctx.db.query<{ n: number }>(
      `SELECT sum((counts->>'co2')::int)::int AS n FROM telemetry_hourly WHERE device_id = $1`,
      [gw.id],
    );
    expect(row!.n).toBe(6);
  });

  it('keeps five-minute buckets equal to the raw mean, least and greatest across a bucket boundary; 24 h reads them', async () => {
    const dev = await addDevice(t, 'gateway', 'LIVE-GW-5MIN', owner.token);
    const FIVE = 300_000;
    const edge = Math.floor((Date.now() - 2 * 3_600_000) / FIVE) * FIVE;
    // Before the edge (sent at once, so some may share a batch) and after it (one by one).
    await Promise.all(
      [
        [-120_000, 600],
        [-60_000, 640],
        [-1, 500],
      ].map(([dt, co2]) => sendReport(t, dev, { co2, pm25: 30 }, edge + dt!)),
    );
    for (const [dt, co2] of [
      [0, 700],
      [30_000, 710],
      [FIVE - 1, 720],
    ])
      await sendReport(t, dev, { co2, pm25: 31 }, edge + dt!);
    const stored = await fiveMinuteBuckets(t.ctx.db, dev.id, new Date(edge - FIVE), new Date(edge + FIVE));
    const co2 = stored.filter((b) => b.key === 'co2');
    expect(co2).toEqual([
      { bucket: edge - FIVE, key: 'co2', n: 3, mean: 580, min: 500, max: 640 },
      { bucket: edge, key: 'co2', n: 3, mean: 710, min: 700, max: 720 },
    ]);
    // The same figures straight from the raw reports.
    const raw = await t.ctx.db.query<{
      bucket: number;
      key: string;
      n: number;
      mean: number;
      min: number;
      max: number;
    }>(
      `SELECT (floor(extract(epoch FROM ts) / 300) * 300000)::float8 AS bucket, e.key, count(*)::int AS n,
              avg(e.value::text::float8)::float8 AS mean, min(e.value::text::float8) AS min, max(e.value::text::float8) AS max
         FROM telemetry, jsonb_each(data) e WHERE device_id = $1 AND jsonb_typeof(e.value) = 'number'
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [dev.id],
    );
    expect(stored).toEqual(raw);
    const r = await t.get<{ source: string; bucket_ms: number; points: Record<string, number>[] }>(
      LIVE_API.history,
      { device_id: dev.id, range: '24h' },
      { token: owner.token },
    );
    expect(r.data).toMatchObject({ source: '5min', bucket_ms: FIVE });
    expect(r.data.points).toEqual([
      { ts: edge - FIVE, co2: 580, pm25: 30 },
      { ts: edge, co2: 710, pm25: 31 },
    ]);
  });

  it('answers 24 h and 30 d the same from its cache of closed buckets, and shows a late report and a new one at once', async () => {
    const dev = await addDevice(t, 'gateway', 'LIVE-GW-CACHE', owner.token);
    const FIVE = 300_000;
    const HOUR = 3_600_000;
    const now = Date.now();
    const edge = Math.floor((now - 2 * HOUR) / FIVE) * FIVE;
    const sent: [number, number][] = [];
    const send = async (ts: number, co2: number, more: Record<string, number> = {}) => {
      sent.push([ts, co2]);
      await sendReport(t, dev, { co2, ...more }, ts);
    };
    /** The mean co2 per bucket of what was sent, as the chart should show it. */
    const means = (bucket: number, since = 0) => {
      const by = new Map<number, number[]>();
      for (const [ts, co2] of sent) {
        if (ts < since) continue;
        const b = Math.floor(ts / bucket) * bucket;
        by.set(b, [...(by.get(b) ?? []), co2]);
      }
      return [...by]
        .sort((x, y) => x[0] - y[0])
        .map(([ts, v]) => ({ ts, co2: v.reduce((s, x) => s + x, 0) / v.length }));
    };
    type H = { source: string; bucket_ms: number; fields: string[]; points: Record<string, number>[] };
    const chart = async (range: '1h' | '24h' | '30d') =>
      (await t.get<H>(LIVE_API.history, { device_id: dev.id, range }, { token: owner.token })).data;
    const co2Of = (h: H) => h.points.map(({ ts, co2 }) => ({ ts, co2 }));

    // Two hours and five hours ago (late when sent, before any chart was read), and now.
    await send(edge + 1000, 600);
    await send(edge - 3 * HOUR, 400);
    await send(now - 20 * 60_000, 300);
    await send(now, 500);
    const cache = historyCacheOf(t.ctx.db);
    const held = cache.size;
    const day = await chart('24h');
    expect(day).toMatchObject({ source: '5min', bucket_ms: FIVE, fields: ['co2'] });
    expect(day.points).toEqual(means(FIVE));
    const month = await chart('30d');
    expect(month).toMatchObject({ source: 'hourly', bucket_ms: 2 * HOUR });
    expect(month.points).toEqual(means(2 * HOUR));
    const hour = await chart('1h');
    expect(hour).toMatchObject({ source: 'raw', bucket_ms: 10_000 });
    expect(hour.points).toEqual(means(10_000, now - HOUR));
    expect(cache.size).toBe(held + 3);
    // Asked again: the closed buckets come from memory, the answer is the same.
    expect(await chart('24h')).toEqual(day);
    expect(await chart('30d')).toEqual(month);
    expect(await chart('1h')).toEqual(hour);

    // A report from two hours ago arrives now (buffered while offline): its closed bucket changes.
    await send(edge + 2000, 900, { pm25: 30 });
    const day2 = await chart('24h');
    expect(co2Of(day2)).toEqual(means(FIVE));
    expect(day2.points.find((p) => p.ts === edge)).toEqual({ ts: edge, co2: 750, pm25: 30 });
    expect(day2.fields).toEqual(['co2', 'pm25']);
    const month2 = await chart('30d');
    expect(co2Of(month2)).toEqual(means(2 * HOUR));
    expect(month2.fields).toEqual(['co2', 'pm25']);
    // An explicit window holds its own reports only (read whole, not from the cache).
    const window = await t.get<H>(
      LIVE_API.history,
      { device_id: dev.id, start: formatDateTime(edge - 600_000), end: formatDateTime(edge + 600_000) },
      { token: owner.token },
    );
    expect(window.data.points).toEqual([{ ts: edge, co2: 750, pm25: 30 }]);
    await send(now - 20 * 60_000 + 1000, 500);
    expect(co2Of(await chart('1h'))).toEqual(means(10_000, now - HOUR));
    // A report on time shows in the newest bucket at once.
    await send(Date.now(), 800);
    expect(co2Of(await chart('24h'))).toEqual(means(FIVE));
    expect(co2Of(await chart('30d'))).toEqual(means(2 * HOUR));
  });

  it('answers the same as time moves on and buckets close under a cached chart', async () => {
    const dev = await addDevice(t, 'gateway', 'LIVE-GW-MOVING', owner.token);
    const FIVE = 300_000;
    const now = Date.now();
    const sent: [number, number][] = [];
    // A report every three minutes over the last hour, all on time.
    for (let ts = now - 60 * 60_000, i = 0; ts <= now; ts += 3 * 60_000, i++) {
      sent.push([ts, 400 + i]);
      await sendReport(t, dev, { co2: 400 + i }, ts);
    }
    const means = () => {
      const by = new Map<number, number[]>();
      for (const [ts, co2] of sent) {
        const b = Math.floor(ts / FIVE) * FIVE;
        by.set(b, [...(by.get(b) ?? []), co2]);
      }
      return [...by]
        .sort((x, y) => x[0] - y[0])
        .map(([ts, v]) => ({ ts, co2: Math.round((v.reduce((s, x) => s + x, 0) / v.length) * 1000) / 1000 }));
    };
    const chart = async () =>
      (
        await t.get<{ fields: string[]; points: Record<string, number>[] }>(
          LIVE_API.history,
          { device_id: dev.id, range: '24h' },
          { token: owner.token },
        )
      ).data;
    expect((await chart()).points).toEqual(means());
    // Later by 7, 13 and 40 minutes: buckets the cache held as open have closed since, and
    // are read from the database and joined to the cached ones.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (const later of [7, 13, 13, 40]) {
        vi.setSystemTime(now + later * 60_000);
        const answer = await chart();
        expect(answer.points).toEqual(means());
        expect(answer.fields).toEqual(['co2']);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('is not there for another tenant and checks the window', async () => {
    expect((await t.get(LIVE_API.history, { device_id: gw.id }, { token: stranger.token })).code).toBe(
      CODE.notFound,
    );
    const bad = await t.get(
      LIVE_API.history,
      { device_id: gw.id, start: '2024-01-02', end: '2024-01-01' },
      { token: owner.token },
    );
    expect(bad.code).toBe(CODE.badRequest);
  });
});

describe('websocket /ws (protocol v1)', () => {
  function open() {
    const ws = new WebSocket(base);
    const inbox: {
      type: number;
      id?: string;
      channel?: string;
      data: { code?: number } & Record<string, unknown>;
    }[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (m) => {
      inbox.push(JSON.parse(m.toString()));
      waiters.splice(0).forEach((w) => w());
    });
    const next = async (pred: (m: (typeof inbox)[number]) => boolean, ms = 3000) => {
      const end = Date.now() + ms;
      for (;;) {
        const i = inbox.findIndex(pred);
        if (i >= 0) return inbox.splice(i, 1)[0]!;
        if (Date.now() > end) throw new Error('no such message');
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
    };
    let n = 0;
    const request = async (action: string, data?: unknown) => {
      const id = String(++n);
      ws.send(JSON.stringify({ v: 1, type: WS_TYPE.request, id, action, data }));
      return next((m) => m.id === id);
    };
    return { ws, request, next, ready: new Promise((r) => ws.once('open', r)) };
  }

  it('refuses subscriptions before auth and with a bad token', async () => {
    const c = open();
    await c.ready;
    expect((await c.request('subscribe', { channel: 'alarms' })).data.code).toBe(CODE.unauthorized);
    expect((await c.request('auth', { token: 'forged' })).type).toBe(WS_TYPE.error);
    c.ws.close();
  });

  it('pushes a report of a subscribed device within a second', async () => {
    const c = open();
    await c.ready;
    expect((await c.request('auth', { token: `"${owner.token}"` })).type).toBe(WS_TYPE.reply);
    expect((await c.request('subscribe', { channel: 'device', id: gw.id })).type).toBe(WS_TYPE.reply);
    const t0 = Date.now();
    await sendReport(t, gw, { co2: 777 });
    const push = await c.next((m) => m.type === WS_TYPE.push && m.channel === 'device');
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(push.data).toMatchObject({ id: gw.id, online: true, data: { co2: 777 } });
    c.ws.close();
  });

  it('pushes every device of a kind channel, even when they report in the same instant', async () => {
    const gw2 = await addDevice(t, 'gateway', 'LIVE-GW-2', owner.token);
    const c = open();
    await c.ready;
    await c.request('auth', { token: owner.token });
    await c.request('subscribe', { channel: 'devices', kind: 'gateway' });
    await Promise.all([sendReport(t, gw, { co2: 801 }), sendReport(t, gw2, { co2: 802 })]);
    const a = await c.next((m) => m.type === WS_TYPE.push && m.channel === 'devices');
    const b = await c.next((m) => m.type === WS_TYPE.push && m.channel === 'devices');
    expect([a.data.id, b.data.id].sort()).toEqual([gw.id, gw2.id].sort());
    c.ws.close();
  });

  it('never subscribes anyone to a device they cannot see, nor pushes it through a kind channel', async () => {
    const c = open();
    await c.ready;
    await c.request('auth', { token: stranger.token });
    expect((await c.request('subscribe', { channel: 'device', id: gw.id })).data.code).toBe(CODE.notFound);
    expect((await c.request('subscribe', { channel: 'devices', kind: 'gateway' })).type).toBe(WS_TYPE.reply);
    expect((await c.request('subscribe', { channel: 'alarms' })).type).toBe(WS_TYPE.reply);
    await sendReport(t, gw, { co2: 778, nh3: 5 });
    await new Promise((r) => setTimeout(r, 600));
    await expect(c.next((m) => m.type === WS_TYPE.push, 100)).rejects.toThrow();
    c.ws.close();
  });

  it('pushes alarms to the owner and stops after logout', async () => {
    const token = await t.login('live_owner', 'password-123');
    const c = open();
    await c.ready;
    await c.request('auth', { token });
    await c.request('subscribe', { channel: 'alarms' });
    await sendReport(t, jwb, { warning: 0 });
    const push = await c.next((m) => m.type === WS_TYPE.push && m.channel === 'alarms');
    expect(push.data).toMatchObject({ type: 'warning', status: 'closed' });
    await t.post('/api/v1/auth/logout', undefined, { token });
    expect((await c.request('subscribe', { channel: 'device', id: gw.id })).data.code).toBe(CODE.revoked);
    c.ws.close();
  });
});
