import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CODE,
  COMMENT_API,
  DEVICE_KINDS,
  MESSAGE_API,
  NOTIFY_API,
  RULE_API,
  SENSOR_API,
  TOILET_API,
  TOILET_DETAIL_API,
  type RuleHitRow,
  type RuleRow,
} from '@se/core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import {
  addDevice,
  adminApp,
  sendReport,
  usingPostgres,
  type Account,
  type TestApp,
} from '../../test/harness.ts';
import { RuleEngine, ruleEngineOf } from './engine.ts';

type Dev = { id: number; ser_num: string; token: string };
let t: TestApp;
let admin: string;
let owner: Account;
let stranger: Account;
let gw: Dev;
let jwb: Dev;
let sensor: Dev;
let strangerGw: Dev;
let toilet: number;
let strangerToilet: number;
let template: number;
let strangerTemplate: number;
let object: number;
let strangerObject: number;

/** A device report through the real HTTP ingest route, then the rule engine drained. */
async function report(
  d: { ser_num: string; token: string },
  data: Record<string, unknown>,
  tsMs: number,
  app: FastifyInstance = t.app,
  ctx: AppContext = t.ctx,
) {
  await sendReport({ app }, d, data, tsMs);
  await ruleEngineOf(ctx)!.idle();
}

const addRule = (body: Record<string, unknown>, token = owner.token) =>
  t.post<RuleRow>(RULE_API.add, { cooldown_s: 0, ...body }, { token });

const hitsOf = async (ruleId: number, token = owner.token) =>
  (
    await t.get<{ list: RuleHitRow[]; total: number }>(
      RULE_API.hits,
      { rule_id: ruleId, page_size: 100 },
      { token },
    )
  ).data;

const add = async <T>(url: string, body: Record<string, unknown>, token: string) => {
  const r = await t.post<T>(url, body, { token });
  if (r.code !== 200) throw new Error(`${url}: ${r.message}`);
  return r.data;
};

/** Adds one of a kind for the owner, then one for the stranger; answers both ids. */
const ownersAndStrangers = async (
  url: string,
  owners: Record<string, unknown>,
  strangers: typeof owners,
): Promise<[number, number]> => [
  (await add<{ id: number }>(url, owners, owner.token)).id,
  (await add<{ id: number }>(url, strangers, stranger.token)).id,
];

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  owner = await t.account('rule_owner', 7);
  stranger = await t.account('rule_stranger', 7);
  gw = await add<Dev>(
    `${DEVICE_KINDS.gateway.base}/add-gateway`,
    { ser_num: 'RULE-GW', desc: '东门公厕' },
    owner.token,
  );
  jwb = await add<Dev>(`${DEVICE_KINDS.jwb.base}/add-jwb`, { ser_num: 'RULE-JWB' }, owner.token);
  sensor = await add<Dev>(SENSOR_API.add, { gateway_id: gw.id, ser_num: 'RULE-SENSOR' }, owner.token);
  strangerGw = await add<Dev>(
    `${DEVICE_KINDS.gateway.base}/add-gateway`,
    { ser_num: 'RULE-GW-X' },
    stranger.token,
  );
  [toilet, strangerToilet] = await ownersAndStrangers(
    TOILET_API.add,
    { name: '东门公厕', gateway_id: gw.id },
    { name: '别人的厕所' },
  );
  [template, strangerTemplate] = await ownersAndStrangers(
    NOTIFY_API.addTemplate,
    { name: '氨气', content: '{desc} 氨气 {nh3}' },
    { name: 'x', content: 'x' },
  );
  [object, strangerObject] = await ownersAndStrangers(
    NOTIFY_API.addObject,
    { name: '值班', type: 'email', target: 'duty@example.com' },
    { name: 'x', type: 'email', target: 'x@example.com' },
  );
});
afterAll(() => t.close());

describe('check-formula', () => {
  it('answers the canonical text, or where and why the formula is wrong', async () => {
    const ok = await t.post(
      RULE_API.check,
      { formula: 'NH3 gt 1.5 AND not (alarm)' },
      { token: owner.token },
    );
    expect(ok.data).toEqual({ ok: true, formula: 'nh3 gt 1.5 and not alarm', vars: ['nh3', 'alarm'] });
    const bad = await t.post(RULE_API.check, { formula: 'nh3 gt 1.5 and nh4 lt 2' }, { token: owner.token });
    expect(bad.code).toBe(200);
    expect(bad.data).toMatchObject({ ok: false, pos: 15, end: 18, message: '第 16 个字符：未知变量 nh4' });
  });
});

describe('add-rule / update-rule', () => {
  it('stores the canonical formula and the scope it names', async () => {
    const r = await addRule({
      name: '氨气超标',
      formula: 'nh3  GT 1.5 and not alarm',
      scope: 'devices',
      device_ids: `${gw.id},${sensor.id}`,
      toilet_ids: String(toilet),
      duration_s: 60,
      cooldown_s: 300,
      template_id: template,
      object_ids: String(object),
    });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({
      name: '氨气超标',
      formula: 'nh3 gt 1.5 and not alarm',
      scope: 'devices',
      device_ids: [gw.id, sensor.id],
      device_labels: ['RULE-GW', 'RULE-SENSOR'],
      // The toilet list is not what a device-scoped rule uses: not kept.
      toilet_ids: [],
      duration_s: 60,
      cooldown_s: 300,
      template_id: template,
      template_name: '氨气',
      object_ids: [object],
      object_names: ['值班'],
      enabled: true,
      hit_count: 0,
      last_fired_at: null,
    });
    const listed = await t.get<{ list: RuleRow[]; total: number }>(
      RULE_API.list,
      { keywords: '氨气' },
      { token: owner.token },
    );
    expect(listed.data.list.map((x) => x.id)).toContain(r.data.id);
    await t.post(RULE_API.update, { id: r.data.id, is_delete: true }, { token: owner.token });
  });

  it('rejects bad input with a Chinese message a person can act on', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', formula: 'nh3 gt 1.5 and nh4 lt 2' }, '公式错误：第 16 个字符：未知变量 nh4'],
      [{ name: 'x', formula: 'nh3 plus 1' }, '公式错误：第 1 个字符：公式的结果需要布尔值'],
      [{ name: 'x', formula: '(alarm' }, '括号不匹配'],
      [{ name: '', formula: 'alarm' }, '名称不能为空'],
      [{ name: 'x', formula: 'alarm', scope: 'devices' }, '请选择至少一台设备'],
      [{ name: 'x', formula: 'alarm', scope: 'toilets', toilet_ids: '' }, '请选择至少一个厕所'],
      [{ name: 'x', formula: 'alarm', scope: 'city' }, '范围只能是'],
      [{ name: 'x', formula: 'alarm', duration_s: 90000 }, '持续时间不能超过 86400 秒'],
      [{ name: 'x', formula: 'alarm', cooldown_s: -1 }, '冷却时间不能小于 0'],
      [{ name: 'x', formula: 'alarm', device_ids: 'a,b' }, 'device_ids必须是ID列表'],
    ];
    for (const [body, message] of cases) {
      const r = await addRule(body);
      expect(r.code, JSON.stringify(body)).toBe(CODE.badRequest);
      expect(r.message).toContain(message);
    }
  });

  it('lets nobody bind another owner’s device, toilet, template or recipient', async () => {
    const base = { name: 'm', formula: 'alarm' };
    const denied: [Record<string, unknown>, string][] = [
      [{ scope: 'devices', device_ids: strangerGw.id }, '设备不存在或无权使用'],
      [{ scope: 'toilets', toilet_ids: strangerToilet }, '厕所不存在或无权使用'],
      [{ template_id: strangerTemplate }, '通知模板不存在或无权使用'],
      [{ object_ids: strangerObject }, '通知对象不存在或无权使用'],
      [{ template_id: 999999 }, '通知模板不存在'],
    ];
    for (const [extra, message] of denied) {
      const r = await addRule({ ...base, ...extra });
      expect(r.code, JSON.stringify(extra)).toBe(CODE.notFound);
      expect(r.message).toContain(message);
    }
    // The same ids are fine for their owner; a device-scoped rule may name sensors and dispensers.
    expect(
      (await addRule({ ...base, scope: 'devices', device_ids: strangerGw.id }, stranger.token)).code,
    ).toBe(200);
    expect((await addRule({ ...base, scope: 'devices', device_ids: `${jwb.id},${sensor.id}` })).code).toBe(
      200,
    );
    // A meter reports no formula variables: not a rule device.
    const meter = await add<Dev>(
      `${DEVICE_KINDS.electric_meter.base}/add-electric-meter`,
      { ser_num: 'RULE-EM' },
      owner.token,
    );
    expect((await addRule({ ...base, scope: 'devices', device_ids: meter.id })).code).toBe(CODE.notFound);

    // Another owner's rule: not listed, not readable, not changeable, its hits not readable.
    const mine = (await addRule({ ...base, name: '我的' })).data;
    expect((await t.get(RULE_API.get, { id: mine.id }, { token: stranger.token })).code).toBe(CODE.notFound);
    expect(
      (await t.post(RULE_API.update, { id: mine.id, enabled: false }, { token: stranger.token })).code,
    ).toBe(CODE.notFound);
    expect(
      (await t.post(RULE_API.update, { id: mine.id, is_delete: true }, { token: stranger.token })).code,
    ).toBe(CODE.notFound);
    expect((await t.get(RULE_API.hits, { rule_id: mine.id }, { token: stranger.token })).code).toBe(
      CODE.notFound,
    );
    const theirs = await t.get<{ list: RuleRow[] }>(
      RULE_API.list,
      { page_size: 100 },
      { token: stranger.token },
    );
    expect(theirs.data.list.every((r) => r.user_id === stranger.id)).toBe(true);
    // Nor can an update smuggle in someone else's ids.
    for (const extra of [
      { scope: 'devices', device_ids: strangerGw.id },
      { scope: 'toilets', toilet_ids: strangerToilet },
      { template_id: strangerTemplate },
      { object_ids: strangerObject },
    ]) {
      expect((await t.post(RULE_API.update, { id: mine.id, ...extra }, { token: owner.token })).code).toBe(
        CODE.notFound,
      );
    }
    expect((await t.get<RuleRow>(RULE_API.get, { id: mine.id }, { token: owner.token })).data).toMatchObject({
      scope: 'all',
      template_id: null,
      object_ids: [],
    });
  });

  it('switches a rule off and on, edits it, and deletes it softly', async () => {
    const r = (await addRule({ name: '开关', formula: 'smk_alarm' })).data;
    const off = await t.post<RuleRow>(
      RULE_API.update,
      { id: r.id, enabled: 'false' },
      { token: owner.token },
    );
    expect(off.data.enabled).toBe(false);
    const disabled = await t.get<{ list: RuleRow[] }>(
      RULE_API.list,
      { enabled: false },
      { token: owner.token },
    );
    expect(disabled.data.list.map((x) => x.id)).toEqual([r.id]);
    const edited = await t.post<RuleRow>(
      RULE_API.update,
      { id: r.id, enabled: true, formula: 'smk_alarm or alarm', scope: 'toilets', toilet_ids: toilet },
      { token: owner.token },
    );
    expect(edited.data).toMatchObject({
      enabled: true,
      formula: 'smk_alarm or alarm',
      scope: 'toilets',
      toilet_ids: [toilet],
      toilet_labels: ['东门公厕'],
    });
    expect(
      (await t.post(RULE_API.update, { id: r.id, formula: 'smk_alarm gt 1' }, { token: owner.token })).code,
    ).toBe(CODE.badRequest);
    expect(
      (await t.post(RULE_API.update, { id: r.id, toilet_ids: '' }, { token: owner.token })).message,
    ).toBe('请选择至少一个厕所');
    expect((await t.post(RULE_API.update, { id: r.id, is_delete: true }, { token: owner.token })).code).toBe(
      200,
    );
    expect((await t.get(RULE_API.get, { id: r.id }, { token: owner.token })).code).toBe(CODE.notFound);
    const all = await t.get<{ list: RuleRow[] }>(RULE_API.list, { page_size: 100 }, { token: owner.token });
    expect(all.data.list.map((x) => x.id)).not.toContain(r.id);
    // Clean slate for the engine tests below.
    for (const x of all.data.list)
      await t.post(RULE_API.update, { id: x.id, is_delete: true }, { token: owner.token });
  });
});

describe('test-formula and rule-devices', () => {
  it('evaluates a formula against the device’s latest readings', async () => {
    await report(gw, { nh3: 2.4, alarm: 0 }, Date.now() - 5000);
    const r = await t.post(
      RULE_API.test,
      { formula: 'nh3 gt 1.5 and not alarm and co2 lt 1000', device_id: gw.id },
      { token: owner.token },
    );
    expect(r.data).toMatchObject({
      device_id: gw.id,
      ser_num: 'RULE-GW',
      values: { nh3: 2.4, alarm: false },
      missing: ['co2'],
      result: null,
    });
    const yes = await t.post(
      RULE_API.test,
      { formula: 'nh3 gt 1.5', device_id: gw.id },
      { token: owner.token },
    );
    expect(yes.data).toMatchObject({ result: true, missing: [] });
    expect(
      (await t.post(RULE_API.test, { formula: 'nh3 gt 1.5', device_id: gw.id }, { token: stranger.token }))
        .code,
    ).toBe(CODE.notFound);
    expect(
      (await t.post(RULE_API.test, { formula: 'nh3 gt', device_id: gw.id }, { token: owner.token })).code,
    ).toBe(CODE.badRequest);
  });

  it('offers only the devices the caller sees that report formula variables', async () => {
    const r = await t.get<{ list: { ser_num: string }[] }>(
      RULE_API.devices,
      { keywords: 'RULE' },
      { token: owner.token },
    );
    expect(r.data.list.map((d) => d.ser_num).sort()).toEqual(['RULE-GW', 'RULE-JWB', 'RULE-SENSOR']);
    const s = await t.get<{ list: { ser_num: string }[] }>(
      RULE_API.devices,
      { keywords: 'RULE' },
      { token: stranger.token },
    );
    expect(s.data.list.map((d) => d.ser_num)).toEqual(['RULE-GW-X']);
  });
});

describe('the rule engine', () => {
  const T0 = Date.now() - 3_600_000;
  const at = (s: number) => T0 + s * 1000;
  let ruleId: number;

  it('fires only after the formula held for the duration, and not again inside the cool-down', async () => {
    ruleId = (
      await addRule({
        name: '氨气持续超标',
        formula: 'nh3 gt 1.5 and not alarm',
        scope: 'devices',
        device_ids: gw.id,
        duration_s: 60,
        cooldown_s: 300,
        template_id: template,
        object_ids: object,
      })
    ).data.id;
    await report(gw, { nh3: 2, alarm: 0 }, at(0));
    await report(gw, { nh3: 2 }, at(30));
    expect((await hitsOf(ruleId)).total).toBe(0);
    await report(gw, { nh3: 2.5 }, at(60));
    let h = await hitsOf(ruleId);
    expect(h.total).toBe(1);
    expect(h.list[0]).toMatchObject({ rule_name: '氨气持续超标', ser_num: 'RULE-GW', desc: '东门公厕' });
    expect(h.list[0]!.values).toMatchObject({ nh3: 2.5, alarm: false });
    await report(gw, { nh3: 3 }, at(90)); // cool-down
    await report(gw, { nh3: 1 }, at(100)); // false: the duration starts again
    await report(gw, { nh3: 2 }, at(120));
    await report(gw, { nh3: 2 }, at(200)); // held 80 s, but still cooling down (140 s since the fire)
    expect((await hitsOf(ruleId)).total).toBe(1);
    await report(gw, { nh3: 2.2, alarm: 1 }, at(250)); // help alarm: the formula is false
    await report(gw, { nh3: 2.2, alarm: 0 }, at(300));
    await report(gw, { nh3: 2.2 }, at(340)); // held 40 s only
    expect((await hitsOf(ruleId)).total).toBe(1);
    await report(gw, { nh3: 2.4 }, at(400)); // held 100 s, cool-down over (340 s)
    h = await hitsOf(ruleId);
    expect(h.total).toBe(2);
    expect(h.list[0]!.values).toMatchObject({ nh3: 2.4 });
    // A late report older than what was evaluated changes nothing.
    await report(gw, { nh3: 9 }, at(10));
    expect((await hitsOf(ruleId)).total).toBe(2);
    const row = (await t.get<RuleRow>(RULE_API.get, { id: ruleId }, { token: owner.token })).data;
    expect(row.hit_count).toBe(2);
    expect(row.last_fired_at).not.toBeNull();
  });

  it('hands each hit to the notification side: the owner gets a message from the template', async () => {
    const msgs = await t.get<{ list: { kind: string; content: string }[] }>(
      MESSAGE_API.list,
      { kind: 'rule' },
      { token: owner.token },
    );
    expect(msgs.data.list.length).toBe(2);
    expect(msgs.data.list[0]!.content).toBe('东门公厕 氨气 2.4');
  });

  it('does not fire again after a restart inside the cool-down, and keeps counting the duration', async () => {
    const second = await buildApp(t.ctx.config, { db: t.ctx.db, logger: false, jobs: false });
    try {
      await report(gw, { nh3: 2.4 }, at(450), second.app, second.ctx);
      await report(gw, { nh3: 2.4 }, at(600), second.app, second.ctx);
      expect((await hitsOf(ruleId)).total).toBe(2);
      // 300 s after the last fire, still true since 300 s: fires on the restarted server.
      await report(gw, { nh3: 2.4 }, at(700), second.app, second.ctx);
      expect((await hitsOf(ruleId)).total).toBe(3);
    } finally {
      await second.app.close();
    }
  });

  it('stops when switched off and counts the duration afresh when switched on again', async () => {
    await t.post(RULE_API.update, { id: ruleId, enabled: false }, { token: owner.token });
    await report(gw, { nh3: 2.4 }, at(1100));
    expect((await hitsOf(ruleId)).total).toBe(3);
    await t.post(RULE_API.update, { id: ruleId, enabled: true }, { token: owner.token });
    await report(gw, { nh3: 2.4 }, at(1120)); // cool-down over, but true only since now
    expect((await hitsOf(ruleId)).total).toBe(3);
    await report(gw, { nh3: 2.4 }, at(1180));
    expect((await hitsOf(ruleId)).total).toBe(4);
    await t.post(RULE_API.update, { id: ruleId, is_delete: true }, { token: owner.token });
  });

  it('covers all the owner sees (scope all), or a toilet’s gateway and sensors (scope toilets)', async () => {
    const all = (await addRule({ name: '烟雾', formula: 'smk_alarm' })).data.id;
    const byToilet = (
      await addRule({ name: '厕所硫化氢', formula: 'h2s gte 0.05', scope: 'toilets', toilet_ids: toilet })
    ).data.id;
    await report(jwb, { nh3: 0.1 }, at(2000)); // no smk_alarm: unknown, no fire
    await report(sensor, { smk_alarm: 1, h2s: 0.06 }, at(2001));
    await report(strangerGw, { smk_alarm: 1, h2s: 0.1 }, at(2002));
    await report(jwb, { h2s: 0.2 }, at(2003)); // the dispenser is not in the toilet
    expect((await hitsOf(all)).list.map((h) => h.ser_num)).toEqual(['RULE-SENSOR']);
    expect((await hitsOf(byToilet)).list.map((h) => h.ser_num)).toEqual(['RULE-SENSOR']);
    await report(gw, { h2s: 0.05 }, at(2004));
    expect((await hitsOf(byToilet)).list.map((h) => h.ser_num)).toEqual(['RULE-GW', 'RULE-SENSOR']);
    for (const id of [all, byToilet])
      await t.post(RULE_API.update, { id, is_delete: true }, { token: owner.token });
  });

  it('checks at fire time that the owner still sees the device', async () => {
    const r = (await addRule({ name: '求助', formula: 'alarm', scope: 'devices', device_ids: gw.id })).data
      .id;
    const unbind = await t.post(
      DEVICE_KINDS.gateway.bind,
      { user_id: owner.id, add_ids: '', remove_ids: String(gw.id) },
      { token: admin },
    );
    expect(unbind.code).toBe(200);
    await report(gw, { alarm: 1 }, at(3000));
    expect((await hitsOf(r)).total).toBe(0);
    await t.post(
      DEVICE_KINDS.gateway.bind,
      { user_id: owner.id, add_ids: String(gw.id), remove_ids: '' },
      { token: admin },
    );
    await report(gw, { alarm: 1 }, at(3010));
    expect((await hitsOf(r)).total).toBe(1);
    await t.post(RULE_API.update, { id: r, is_delete: true }, { token: owner.token });
  });

  it('fires a first hit once when two server copies evaluate it at the same moment', async () => {
    const twins: Dev[] = [];
    for (let i = 1; i <= 4; i++)
      twins.push(
        await add<Dev>(
          `${DEVICE_KINDS.gateway.base}/add-gateway`,
          { ser_num: `RULE-TWIN-${i}`, desc: `双副本${i}` },
          owner.token,
        ),
      );
    const r = (
      await addRule({
        name: '双副本首发',
        formula: 'nh3 gt 1.5',
        scope: 'devices',
        device_ids: twins.map((d) => d.id).join(','),
        cooldown_s: 600,
        template_id: template,
      })
    ).data.id;
    // The other copy: on PostgreSQL its own connection pool on the same database; an embedded
    // PGlite lives in one process, so there the copies share it.
    const other = await buildApp(t.ctx.config, {
      db: usingPostgres() ? undefined : t.ctx.db,
      logger: false,
      jobs: false,
    });
    try {
      const engines = [ruleEngineOf(t.ctx)!, ruleEngineOf(other.ctx)!];
      await Promise.all(engines.map((e) => e.idle()));
      // The same stored reports reach both copies in the same tick: each device's first hit.
      const reports = twins.map((d) => ({
        device_id: d.id,
        kind: 'gateway',
        ts: at(5000),
        data: { nh3: 2 },
      }));
      for (const e of engines) e.enqueue(reports);
      await Promise.all(engines.map((e) => e.idle()));
      const hits = await hitsOf(r);
      expect(hits.list.map((h) => h.ser_num).sort()).toEqual(twins.map((d) => d.ser_num));
      const msgs = await t.get<{ list: { content: string }[] }>(
        MESSAGE_API.list,
        { kind: 'rule', page_size: 100 },
        { token: owner.token },
      );
      expect(msgs.data.list.filter((m) => m.content.startsWith('双副本')).length).toBe(4);
      // A later report inside the cool-down fires on neither copy.
      const later = twins.map((d) => ({ device_id: d.id, kind: 'gateway', ts: at(5060), data: { nh3: 3 } }));
      engines[0]!.enqueue(later.slice(0, 2));
      engines[1]!.enqueue(later.slice(2));
      await Promise.all(engines.map((e) => e.idle()));
      expect((await hitsOf(r)).total).toBe(4);
    } finally {
      await other.app.close();
    }
    await t.post(RULE_API.update, { id: r, is_delete: true }, { token: owner.token });
  });

  it('drops reports with a count when its queue is full, without touching ingest', async () => {
    const warn = vi.fn();
    const engine = new RuleEngine(
      { ...t.ctx, log: { ...t.ctx.log, warn } as unknown as AppContext['log'] },
      { maxQueue: 2, maxBatch: 100, reloadMs: 60_000 },
    );
    const r = (i: number) => ({ device_id: gw.id, kind: 'gateway', ts: at(4000 + i), data: { nh3: 1 } });
    engine.enqueue([r(1), r(2), r(3), r(4), r(5)]);
    expect(engine.stats.dropped).toBe(3);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ dropped: 3 }),
      'rule engine overloaded: reports dropped without evaluation',
    );
    // Reports without formula variables never take a place in the queue.
    engine.enqueue([{ device_id: gw.id, kind: 'gateway', ts: at(4010), data: { male_count: 1 } }]);
    expect(engine.stats.dropped).toBe(3);
    await engine.stop();
  });
});

describe('review rules (star level and the four flags)', () => {
  const T1 = Date.now() - 7_200_000;
  const at = (s: number) => T1 + s * 1000;
  let terminal: Dev;

  beforeAll(async () => {
    terminal = await addDevice(t, 'evaluate', 'RULE-EVL', owner.token);
    await add(TOILET_DETAIL_API.place, { toilet_id: toilet, add_ids: `${terminal.id}` }, owner.token);
  });

  it('needs a window to count in', async () => {
    const r = await addRule({ name: '差评', formula: 'star_level lte 2', min_count: 3 });
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toContain('按次数触发时，请填写统计时间');
  });

  it('alerts on a run of bad reviews at a toilet: 3 of at most 2 stars within 30 minutes', async () => {
    const r = await addRule({
      name: '连续差评',
      formula: 'star_level lte 2',
      scope: 'toilets',
      toilet_ids: toilet,
      min_count: 3,
      window_s: 1800,
    });
    expect(r.code, r.message).toBe(200);
    expect(r.data).toMatchObject({ min_count: 3, window_s: 1800 });
    const id = r.data.id;
    await report(terminal, { star_level: 1 }, at(0));
    await report(terminal, { star_level: 5 }, at(60)); // a good one neither counts nor resets
    await report(terminal, { star_level: 2 }, at(120));
    expect((await hitsOf(id)).total).toBe(0);
    await report(terminal, { star_level: 1 }, at(3000)); // the first two are out of the window now
    await report(terminal, { star_level: 2 }, at(3100));
    expect((await hitsOf(id)).total).toBe(0);
    await report(terminal, { star_level: 1 }, at(3200));
    const h = await hitsOf(id);
    expect(h.total).toBe(1);
    expect(h.list[0]).toMatchObject({ ser_num: 'RULE-EVL', values: { star_level: 1 } });
    // The count starts afresh after a fire.
    await report(terminal, { star_level: 1 }, at(3300));
    expect((await hitsOf(id)).total).toBe(1);
    // The owner hears of it like of any rule.
    const msgs = await t.get<{ list: { title: string; content: string }[] }>(
      MESSAGE_API.list,
      { kind: 'rule' },
      { token: owner.token },
    );
    expect(msgs.data.list[0]!.title).toContain('RULE-EVL');
    // Without a template, the text speaks of the review, not of gases.
    expect(msgs.data.list[0]!.content).toContain('star_level lte 2，评价星级 1，时间');
    await t.post(RULE_API.update, { id, is_delete: true }, { token: owner.token });
  });

  it('fires on a ticked flag, and reads each review whole (no flag carried over)', async () => {
    const id = (
      await addRule({
        name: '异味或卫生差',
        formula: 'smelly or poorsanitary',
        scope: 'devices',
        device_ids: terminal.id,
      })
    ).data.id;
    await report(terminal, { star_level: 4, smelly: 1 }, at(4000));
    expect((await hitsOf(id)).list.map((x) => x.values)).toEqual([
      expect.objectContaining({ smelly: true, poorsanitary: false, star_level: 4 }),
    ]);
    await report(terminal, { star_level: 5 }, at(4100));
    expect((await hitsOf(id)).total).toBe(1);
    await report(terminal, { star_level: 3, poorsanitary: 1 }, at(4200));
    expect((await hitsOf(id)).total).toBe(2);
    await t.post(RULE_API.update, { id, is_delete: true }, { token: owner.token });
  });

  it("counts reviews from the toilet's QR page (/add-comment) on its evaluation terminal", async () => {
    const { public_id } = (
      await t.ctx.db.query<{ public_id: string }>('SELECT public_id FROM toilets WHERE id = $1', [toilet])
    )[0]!;
    let visitor = 0;
    const qrReview = async (body: Record<string, unknown>) => {
      const r = await t.post(COMMENT_API.add, {
        toilet_id: public_id,
        visitor_id: `visitor-qr-${process.pid}-${++visitor}`,
        ...body,
      });
      expect(r.code, r.message).toBe(200);
      await ruleEngineOf(t.ctx)!.idle();
    };
    const run = (
      await addRule({
        name: '扫码差评',
        formula: 'star_level lte 2',
        scope: 'toilets',
        toilet_ids: toilet,
        min_count: 2,
        window_s: 1800,
      })
    ).data.id;
    const flag = (
      await addRule({ name: '扫码异味', formula: 'smelly', scope: 'toilets', toilet_ids: toilet })
    ).data.id;
    await qrReview({ star_level: 1 });
    expect((await hitsOf(run)).total).toBe(0);
    await qrReview({ star_level: 5, smelly: 1 });
    expect((await hitsOf(flag)).list.map((h) => h.values)).toEqual([
      expect.objectContaining({ smelly: true, star_level: 5 }),
    ]);
    await qrReview({ star_level: 2 });
    const h = await hitsOf(run);
    expect(h.total).toBe(1);
    expect(h.list[0]).toMatchObject({ ser_num: 'RULE-EVL', values: { star_level: 2, smelly: false } });
    // The next review is read whole: the flag of the one before is not carried over.
    await qrReview({ star_level: 4 });
    expect((await hitsOf(flag)).total).toBe(1);
    for (const id of [run, flag])
      await t.post(RULE_API.update, { id, is_delete: true }, { token: owner.token });
  });
});
