import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  DEVICE_KINDS,
  JWB_API,
  ENVIRONMENT_PRESETS,
  PARAMETER_DEFAULTS,
  PERMISSION,
  SCHEDULE_PRESETS,
  WEEKDAYS,
} from '@se/core';
import { addDevice, adminApp, type Account, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: string;
let owner: Account;
let stranger: Account;
let jwb: number;
let gateway: number;

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  owner = await t.account('cfg_owner', PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor);
  stranger = await t.account('cfg_stranger', PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor);
  jwb = (await addDevice(t, 'jwb', 'JWB-CFG', owner.token)).id;
  gateway = (await addDevice(t, 'gateway', 'GW-CFG', owner.token)).id;
});
afterAll(() => t.close());

describe('dispenser config', () => {
  it('defaults to 05:30–22:00 every day before the first save', async () => {
    const r = await t.get<Record<string, string>>(JWB_API.getConfig, { id: jwb }, { token: owner.token });
    for (const d of WEEKDAYS) expect([r.data[`${d}_start`], r.data[`${d}_end`]]).toEqual(['05:30', '22:00']);
  });

  it('applies the 学校 preset (weekends off) and queues it for the device', async () => {
    const school = SCHEDULE_PRESETS.find((p) => p.config_name === '学校')!;
    const body: Record<string, string | number> = { id: jwb, config_name: school.config_name };
    for (const d of WEEKDAYS) {
      body[`${d}_start`] = school.schedule[d].start;
      body[`${d}_end`] = school.schedule[d].end;
    }
    const r = await t.post<Record<string, string>>(JWB_API.updateConfig, body, { token: owner.token });
    expect(r.code, r.message).toBe(200);
    expect(r.data).toMatchObject({
      config_name: '学校',
      mon_start: '07:00',
      fri_end: '19:00',
      sat_start: '00:01',
      sun_end: '00:00',
    });
    const cmds = await t.get<{ list: { type: string; status: string }[] }>(
      JWB_API.commands,
      { device_id: jwb },
      { token: owner.token },
    );
    expect(cmds.data.list[0]).toMatchObject({ type: 'config', status: 'pending' });
    const dev = await t.get<{ config_date: string | null }>(
      `${DEVICE_KINDS.jwb.base}/get-jwb`,
      { id: jwb },
      { token: owner.token },
    );
    expect(dev.data.config_date).toMatch(/^\d{4}-\d{2}-\d{2} /);
  });

  it('rejects a malformed time', async () => {
    const r = await t.post(JWB_API.updateConfig, { id: jwb, mon_start: '25:00' }, { token: owner.token });
    expect(r).toMatchObject({ code: CODE.badRequest, message: '时间格式应为 HH:MM' });
  });

  it('is not there for another tenant', async () => {
    expect((await t.get(JWB_API.getConfig, { id: jwb }, { token: stranger.token })).code).toBe(CODE.notFound);
    expect(
      (await t.post(JWB_API.updateConfig, { id: jwb, mon_start: '06:00' }, { token: stranger.token })).code,
    ).toBe(CODE.notFound);
    expect((await t.get(JWB_API.commands, { device_id: jwb }, { token: stranger.token })).code).toBe(
      CODE.notFound,
    );
  });
});

describe('parameter sets', () => {
  it('ships the shared default set 2 with every SPEC default', async () => {
    const r = await t.get<{ list: Record<string, unknown>[] }>(JWB_API.parameters, undefined, {
      token: owner.token,
    });
    const def = r.data.list.find((p) => p.parameter_num === 2)!;
    const { parameter_desc: _desc, ...defaults } = PARAMETER_DEFAULTS;
    expect(def).toMatchObject({ ...defaults, shared: true });
  });

  it('creates a set from an environment preset with defaults for the rest, and applies it', async () => {
    const office = ENVIRONMENT_PRESETS.find((p) => p.environment === 'office building')!;
    const r = await t.post<{
      id: number;
      parameter_num: number;
      liquid_time: number;
      water_co: number;
      fan_cps: number;
    }>(
      JWB_API.addParameter,
      {
        parameter_desc: '写字楼',
        environment: office.environment,
        atomizer_cps: office.atomizer_cps,
        liquid_time: office.liquid_time,
        fan_cps: office.fan_cps,
      },
      { token: owner.token },
    );
    expect(r.code, r.message).toBe(200);
    expect(r.data).toMatchObject({ liquid_time: 2500, fan_cps: 0.8, water_co: 1800 });
    expect(r.data.parameter_num).toBeGreaterThan(2);
    const applied = await t.post<{ parameter_num: number }>(
      JWB_API.applyParameter,
      { id: jwb, parameter_num: r.data.parameter_num },
      { token: owner.token },
    );
    expect(applied.data.parameter_num).toBe(r.data.parameter_num);
    const cmds = await t.get<{ list: { type: string }[] }>(
      JWB_API.commands,
      { device_id: jwb },
      { token: owner.token },
    );
    expect(cmds.data.list[0]!.type).toBe('parameter');
    // Another tenant neither sees nor applies this set.
    const theirs = await t.get(JWB_API.getParameter, { id: r.data.id }, { token: stranger.token });
    expect(theirs.code).toBe(CODE.notFound);
  });

  it('keeps the shared set for develop to edit', async () => {
    const list = await t.get<{ list: { id: number; parameter_num: number }[] }>(
      JWB_API.parameters,
      undefined,
      { token: owner.token },
    );
    const shared = list.data.list.find((p) => p.parameter_num === 2)!;
    const r = await t.post(JWB_API.updateParameter, { id: shared.id, water_co: 1 }, { token: owner.token });
    expect(r.code).toBe(CODE.forbidden);
    const ok = await t.post<{ water_co: number }>(
      JWB_API.updateParameter,
      { id: shared.id, water_co: 1900 },
      { token: admin },
    );
    expect(ok.data.water_co).toBe(1900);
  });

  it('rejects an unknown environment and non-numbers', async () => {
    expect((await t.post(JWB_API.addParameter, { environment: 'mars' }, { token: owner.token })).code).toBe(
      CODE.badRequest,
    );
    expect((await t.post(JWB_API.addParameter, { water_co: 'lots' }, { token: owner.token })).code).toBe(
      CODE.badRequest,
    );
  });
});

describe('commands', () => {
  it('queues cache operations 0–3 as pending and refuses others', async () => {
    for (const op of [0, 1, 2, 3]) {
      const r = await t.post<{ command_id: number }>(
        JWB_API.cacheOperation,
        { id: jwb, op },
        { token: owner.token },
      );
      expect(r.code).toBe(200);
    }
    const bad = await t.post(JWB_API.cacheOperation, { id: jwb, op: 4 }, { token: owner.token });
    expect(bad.code).toBe(CODE.badRequest);
    const theirs = await t.post(JWB_API.cacheOperation, { id: jwb, op: 0 }, { token: stranger.token });
    expect(theirs.code).toBe(CODE.notFound);
  });

  it('queues sensor operations on a gateway', async () => {
    const r = await t.post(JWB_API.sensorOperation, { id: gateway, op: 0 }, { token: owner.token });
    expect(r.code).toBe(200);
    const list = await t.get<{ list: { type: string; op: number }[] }>(
      JWB_API.commands,
      { device_id: gateway },
      { token: owner.token },
    );
    expect(list.data.list[0]).toMatchObject({ type: 'sensor', op: 0 });
    expect((await t.post(JWB_API.sensorOperation, { id: jwb, op: 0 }, { token: owner.token })).code).toBe(
      CODE.notFound,
    );
  });

  it('reads 超时 (timeout) once a command is past its deadline', async () => {
    await t.ctx.db.query(
      `UPDATE device_commands SET expires_at = now() - interval '1 second' WHERE device_id = $1`,
      [gateway],
    );
    const list = await t.get<{ list: { status: string }[] }>(
      JWB_API.commands,
      { device_id: gateway },
      { token: owner.token },
    );
    expect(list.data.list.every((c) => c.status === 'timeout')).toBe(true);
  });
});
