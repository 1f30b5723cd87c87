import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  DISPLAY_TOKEN_INVALID,
  PERMISSION,
  TOILET_API,
  TOILET_DETAIL_API,
  type DisplayData,
  type DisplayTokenRow,
  type NewDisplayToken,
} from '@se/core';
import { sha256 } from '../auth/password.ts';
import { addDevice, addToilet, sendReport, testApp, type Account, type TestApp } from '../../test/harness.ts';
import { MAX_ACTIVE_TOKENS } from './service.ts';

let t: TestApp;
let owner: Account;
let other: Account;
let viewer: Account;
let gw: { id: number; ser_num: string; token: string };
let toilet: number;
let otherToilet: number;

const screen = (token: string, ip?: string) =>
  t.get<DisplayData>(TOILET_DETAIL_API.display, { token }, ip ? { ip } : undefined);

const create = (toiletId: number, name: string, token = owner.token) =>
  t.post<NewDisplayToken>(TOILET_DETAIL_API.addDisplayToken, { toilet_id: toiletId, name }, { token });

beforeAll(async () => {
  t = await testApp();
  const mgr = PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor;
  owner = await t.account('dp_owner', mgr, 1);
  other = await t.account('dp_other', mgr, 1);
  viewer = await t.account('dp_viewer', PERMISSION.visitor, owner.id);
  gw = await addDevice(t, 'gateway', 'DP-GW', owner.token);
  toilet = await addToilet(t, owner.token, {
    name: '显示屏厕所',
    cityname: '杭州市',
    address: '湖滨路 2 号',
    gateway_id: gw.id,
  });
  otherToilet = (await t.post<{ id: number }>(TOILET_API.add, { name: '别家' }, { token: other.token })).data
    .id;
  await t.post(TOILET_API.bind, { user_id: viewer.id, add_ids: String(toilet) }, { token: owner.token });
  await t.post(
    TOILET_DETAIL_API.updateDocument,
    { toilet_id: toilet, male_count: 4, female_count: 6, open_time: '06:00', close_time: '23:00' },
    { token: owner.token },
  );
  await sendReport(t, gw, { male_occupy: 3, female_count: 6, female_occupy: 1, nh3: 0.5, h2s: 0.01 });
});
afterAll(() => t.close());

describe('display tokens', () => {
  let made: NewDisplayToken;

  it('creates a named token, answered once; only its hash is stored', async () => {
    const r = await create(toilet, '男厕门口屏');
    expect(r.code, r.message).toBe(200);
    made = r.data;
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({ name: '男厕门口屏', created_by_name: 'dp_owner', revoked_at: null });
    const rows = await t.ctx.db.query<{ token_hash: string }>(
      `SELECT token_hash FROM display_tokens WHERE id = $1`,
      [made.id],
    );
    expect(rows[0]!.token_hash).toBe(sha256(made.token));
    expect(rows[0]!.token_hash).not.toContain(made.token);
    const list = await t.get<DisplayTokenRow[]>(
      TOILET_DETAIL_API.displayTokens,
      { toilet_id: toilet },
      { token: viewer.token },
    );
    expect(list.data.map((x) => x.name)).toEqual(['男厕门口屏']);
    expect(JSON.stringify(list.data)).not.toContain(made.token);
  });

  it('opens the public display: occupancy, air with level, opening hours, stars', async () => {
    const r = await screen(made.token);
    expect(r.code, r.message).toBe(200);
    const [row] = await t.ctx.db.query<{ public_id: string }>('SELECT public_id FROM toilets WHERE id = $1', [
      toilet,
    ]);
    // The screen's QR code needs the public id; the counting internal id stays inside.
    expect(r.data.toilet).toEqual({
      public_id: row!.public_id,
      name: '显示屏厕所',
      address: '杭州市 湖滨路 2 号',
      status: expect.any(Number),
    });
    expect(r.data.document).toMatchObject({ open_time: '06:00', close_time: '23:00' });
    expect(r.data.occupancy).toEqual([
      // The gateway sent no male count: the document's 4 stands in.
      { key: 'male', label: '男', count: 4, occupy: 3, times: null },
      { key: 'female', label: '女', count: 6, occupy: 1, times: null },
    ]);
    expect(r.data.air?.gases.find((g) => g.gas === 'nh3')).toEqual({ gas: 'nh3', value: 0.5, level: 'fair' });
    expect(r.data.air?.level_text).toMatch(/^[优良差]$/);
    expect(r.data.gateway_online).toBe(true);
    expect(r.data.star_average).toBeNull();
    const seen = await t.get<DisplayTokenRow[]>(
      TOILET_DETAIL_API.displayTokens,
      { toilet_id: toilet },
      { token: owner.token },
    );
    expect(seen.data[0]!.last_seen_at).not.toBeNull();
  });

  it('refuses unknown tokens with 显示令牌已失效', async () => {
    expect(await screen('not-a-token')).toMatchObject({
      code: CODE.forbidden,
      message: DISPLAY_TOKEN_INVALID,
    });
    expect((await t.get(TOILET_DETAIL_API.display, {})).code).toBe(CODE.badRequest);
  });

  it('stops working once revoked', async () => {
    const r = await t.post<DisplayTokenRow>(
      TOILET_DETAIL_API.revokeDisplayToken,
      { id: made.id },
      { token: owner.token },
    );
    expect(r.code, r.message).toBe(200);
    expect(r.data.revoked_at).not.toBeNull();
    expect(await screen(made.token)).toMatchObject({ code: CODE.forbidden, message: DISPLAY_TOKEN_INVALID });
  });

  it('stops working when the toilet is deleted', async () => {
    const x = (await t.post<{ id: number }>(TOILET_API.add, { name: '将删除' }, { token: owner.token })).data
      .id;
    const k = (await create(x, '临时屏')).data;
    expect((await screen(k.token)).code).toBe(200);
    await t.post(TOILET_API.update, { id: x, is_delete: true }, { token: owner.token });
    expect((await screen(k.token)).message).toBe(DISPLAY_TOKEN_INVALID);
  });

  it('is managed only by users who see the toilet and hold the user role', async () => {
    expect((await create(otherToilet, '偷看')).code).toBe(CODE.notFound);
    expect((await create(toilet, '访客建的', viewer.token)).code).toBe(CODE.forbidden);
    const mine = (await create(toilet, '女厕门口屏')).data;
    expect(
      (await t.post(TOILET_DETAIL_API.revokeDisplayToken, { id: mine.id }, { token: other.token })).code,
    ).toBe(CODE.notFound);
    expect(
      (await t.post(TOILET_DETAIL_API.revokeDisplayToken, { id: mine.id }, { token: viewer.token })).code,
    ).toBe(CODE.forbidden);
    expect(
      (await t.get(TOILET_DETAIL_API.displayTokens, { toilet_id: toilet }, { token: other.token })).code,
    ).toBe(CODE.notFound);
    expect((await screen(mine.token)).code).toBe(200);
  });

  it('caps active tokens per toilet', async () => {
    const x = (await t.post<{ id: number }>(TOILET_API.add, { name: '多屏' }, { token: owner.token })).data
      .id;
    for (let i = 0; i < MAX_ACTIVE_TOKENS; i++) expect((await create(x, `屏${i}`)).code).toBe(200);
    const over = await create(x, '再来一个');
    expect(over.code).toBe(CODE.conflict);
  });

  it('rate-limits the public call per address', async () => {
    const k = (await create(toilet, '限流屏')).data;
    const ip = '10.9.8.7';
    let limited = 0;
    for (let i = 0; i < 250; i++) if ((await screen(k.token, ip)).code === CODE.rateLimited) limited++;
    expect(limited).toBe(10);
  });
});
