import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOILET_API, type DeviceRow, type ToiletRow } from '@se/core';
import { jsonAnswer } from '../http/route.ts';
import { listDevices } from '../modules/devices/repo.ts';
import { listToilets } from '../modules/toilets/repo.ts';
import {
  ADMIN_PASSWORD,
  addDevice,
  addToilet,
  dealers,
  kindUrl,
  testApp,
  type TestApp,
} from '../test/harness.ts';
import { JsonRows } from './json-rows.ts';

/**
 * A list page's rows come from the database as one JSON array text (selectPage `json`) and
 * go into the answer as they are: the rows a client reads must be the very rows the parsed
 * path gives, text, numbers, nulls and JSON columns alike, in the list's order.
 */
let t: TestApp;
let admin: string;
let dealer: { id: number; token: string };
let dealerPath: string;
// Text JSON must escape, and text it must not touch.
const ODD = ['引号"与\\反斜杠', '换行\n制表\t', '表情😀与\u0001控制符', "单引号'", '</script>'];

beforeAll(async () => {
  t = await testApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  dealer = (await dealers(t, 'json')).dealer;
  dealerPath = (
    await t.ctx.db.query<{ path: string }>('SELECT path FROM users WHERE id = $1', [dealer.id])
  )[0]!.path;
  for (const [i, text] of ODD.entries()) {
    const d = await addDevice(t, 'gateway', `JS-${i}`, dealer.token, {
      lng: 120.1 + i / 3,
      lat: 30.25 - i / 7,
    });
    // The text as stored, whatever the forms would trim; what ingest leaves: the latest
    // values as JSON (fractions, nesting) and a report time.
    await t.ctx.db.query(
      `UPDATE devices SET "desc" = $5, location = '杭州市' || $5, latest = $2::jsonb,
              time = now() - $3 * interval '1 second', reading = $4 WHERE id = $1`,
      [
        d.id,
        JSON.stringify({ co2: 500 + i, nh3: 0.1 * i, nested: { a: [1, 2.5, null] } }),
        i * 7,
        i / 3,
        text,
      ],
    );
    await addToilet(t, dealer.token, { name: text, address: `某路${text}`, lng: 120.2, lat: 30.3 });
  }
});
afterAll(() => t.close());

describe('list pages as JSON from the database', () => {
  it('gives the device rows the parsed path gives, in order, for every scope and page', async () => {
    for (const scope of ['/', dealerPath]) {
      for (const [limit, offset] of [
        [20, 0],
        [2, 1],
        [10, 40],
      ] as const) {
        const f = { kind: 'gateway', scope, offlineMs: 60_000, limit, offset };
        const rows = await listDevices(t.ctx.db, f);
        const json = await listDevices(t.ctx.db, { ...f, json: true });
        expect(json.list).toBeInstanceOf(JsonRows);
        expect(json.list.parse()).toEqual(rows.list);
        expect(json.total).toBe(rows.total);
      }
    }
  });

  it('gives the toilet rows the parsed path gives', async () => {
    for (const scope of ['/', dealerPath]) {
      const rows = await listToilets(t.ctx.db, { scope, limit: 3, offset: 1 });
      const json = await listToilets(t.ctx.db, { scope, limit: 3, offset: 1, json: true });
      expect(json.list.parse()).toEqual(rows.list);
      expect(json.total).toBe(rows.total);
    }
  });

  it('answers the device list over HTTP with the odd text intact', async () => {
    const r = await t.get<{ list: DeviceRow[]; total: number }>(
      kindUrl('gateway', 'list'),
      { page: 1, page_size: 20 },
      { token: dealer.token },
    );
    expect(r.code).toBe(200);
    expect(r.res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.data.total).toBe(ODD.length);
    expect(r.data.list.map((d) => d.desc)).toEqual([...ODD].reverse());
    const newest = r.data.list[0]!;
    expect(newest.latest).toEqual({ co2: 504, nh3: 0.4, nested: { a: [1, 2.5, null] } });
    expect(newest.lng).toBeCloseTo(120.1 + 4 / 3, 10);
    expect(typeof newest.time).toBe('number');
    expect(newest.online).toBe(true);
  });

  it('answers an empty page as an empty list with its total', async () => {
    const r = await t.get<{ list: ToiletRow[]; total: number; page: number }>(
      TOILET_API.list,
      { page: 9, page_size: 10 },
      { token: admin },
    );
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ list: [], total: ODD.length, page: 9, page_size: 10 });
  });
});

describe('jsonAnswer', () => {
  it('splices the rows into the envelope as they are', () => {
    const text = '[{"id":1,"name":"西湖"}]';
    expect(JSON.parse(jsonAnswer({ list: new JsonRows(text) }))).toEqual({
      code: 200,
      message: '成功',
      data: { list: [{ id: 1, name: '西湖' }] },
    });
    const page = jsonAnswer({ list: new JsonRows('[]'), total: 1001, estimated: true });
    expect(JSON.parse(page)).toEqual({
      code: 200,
      message: '成功',
      data: { list: [], total: 1001, estimated: true },
    });
  });

  it('writes the other fields as JSON.stringify would, in order, leaving out undefined ones', () => {
    const answer = {
      bucket_ms: 300_000,
      source: 'raw',
      skipped: undefined,
      fields: ['co2', '"引号"'],
      points: new JsonRows('[{"ts":1,"co2":2.5}]'),
      at: new Date(0),
    };
    const plain = { ...answer, points: [{ ts: 1, co2: 2.5 }] };
    expect(jsonAnswer(answer)).toBe(JSON.stringify({ code: 200, message: '成功', data: plain }));
  });
});
