import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  DEVICE_KINDS,
  JWB_API,
  MAX_MESSAGE_BYTES,
  MAX_REPORT_BODY_BYTES,
  STATUS_FILTER,
  TOPIC,
} from '@se/core';
import { addDevice, adminApp, kindUrl, postReport, type TestApp } from '../test/harness.ts';

let t: TestApp;
let admin: string;
let gw: { id: number; ser_num: string; token: string };
let jwb: { id: number; ser_num: string; token: string };
let mqttUrl: string;

const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  ({ t, admin } = await adminApp({ mqttPort: 0, host: '127.0.0.1' }));
  gw = await addDevice(t, 'gateway', 'ING-GW-1', admin);
  jwb = await addDevice(t, 'jwb', 'ING-JWB-1', admin);
  mqttUrl = `mqtt://127.0.0.1:${t.ctx.broker!.port}`;
});
afterAll(() => t.close());

async function report(body: Record<string, unknown>, token = gw.token) {
  const res = await postReport(t, token, body);
  return res.json() as {
    code: number;
    message: string;
    data: { accepted: number; duplicates: number; rejected: { index: number; error: string }[] };
  };
}

const device = async (id: number) =>
  (
    await t.ctx.db.query<{ time: Date | null; latest: Record<string, unknown>; bad_messages: number }>(
      `SELECT time, latest, bad_messages FROM devices WHERE id = $1`,
      [id],
    )
  )[0]!;
const stored = async (id: number) =>
  (
    await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM telemetry WHERE device_id = $1`, [id])
  )[0]!.n;

describe('HTTP transport', () => {
  it('refuses a wrong token or an unknown device', async () => {
    expect(
      (await report({ ser_num: gw.ser_num, id: 1, ts: now(), type: 'report', data: {} }, 'wrong')).code,
    ).toBe(CODE.unauthorized);
    expect((await report({ ser_num: 'NOPE', id: 1, ts: now(), type: 'report', data: {} })).code).toBe(
      CODE.unauthorized,
    );
  });

  it('stores a report, updates the latest state and makes the device online', async () => {
    const ts = now();
    const r = await report({
      ser_num: gw.ser_num,
      id: 'm-1',
      ts,
      type: 'report',
      data: { nh3: 0.3, co2: 800, male_occupy: 2 },
    });
    expect(r).toMatchObject({ code: 200, data: { accepted: 1, duplicates: 0, rejected: [] } });
    const d = await device(gw.id);
    expect(new Date(d.time!).getTime()).toBe(ts * 1000);
    expect(d.latest).toMatchObject({ nh3: 0.3, co2: 800, male_occupy: 2 });
    const list = await t.get<{ list: { id: number }[] }>(
      `${DEVICE_KINDS.gateway.base}/gateways`,
      { status: STATUS_FILTER.online },
      { token: admin },
    );
    expect(list.data.list.map((x) => x.id)).toContain(gw.id);
  });

  it('stores a message id seen twice once', async () => {
    const msg = { ser_num: gw.ser_num, id: 'dup-1', ts: now(), type: 'report', data: { nh3: 0.4 } };
    const before = await stored(gw.id);
    expect((await report(msg)).data.accepted).toBe(1);
    expect((await report(msg)).data).toMatchObject({ accepted: 0, duplicates: 1 });
    expect(await stored(gw.id)).toBe(before + 1);
  });

  it('keeps the newest state when reports arrive out of order, filling only missing fields', async () => {
    const ts = now();
    await report({ ser_num: gw.ser_num, id: 'new', ts, type: 'report', data: { nh3: 1.0 } });
    await report({
      ser_num: gw.ser_num,
      id: 'old',
      ts: ts - 600,
      type: 'report',
      data: { nh3: 9.9, pm25: 35 },
    });
    const d = await device(gw.id);
    expect(new Date(d.time!).getTime()).toBe(ts * 1000);
    expect(d.latest).toMatchObject({ nh3: 1.0, pm25: 35 });
  });

  it('counts bad payloads per device and reports them, never crashing', async () => {
    const r = await report({
      ser_num: gw.ser_num,
      messages: [
        { id: 'b1', ts: now(), type: 'report', data: { nh3: -1 } },
        { id: 'b2', ts: 'yesterday', type: 'report', data: {} },
        'not even an object',
        { id: 'b3', ts: now() + 10 * 86400, type: 'report', data: {} },
        { id: 'g1', ts: now(), type: 'report', data: { h2s: 0.01 } },
      ],
    });
    expect(r.data.accepted).toBe(1);
    expect(r.data.rejected.map((x) => x.index)).toEqual([0, 1, 2, 3]);
    expect(r.data.rejected[0]!.error).toContain('nh3');
    await t.ctx.pipeline.flush();
    expect((await device(gw.id)).bad_messages).toBe(4);
  });

  it('rejects what the database cannot store instead of failing the whole batch', async () => {
    const r = await report(
      {
        ser_num: jwb.ser_num,
        messages: [
          { id: 'p1', ts: now(), type: 'report', data: { warning: 2 ** 31 } },
          { id: 'p2', ts: now(), type: 'report', data: { warning: 8, state: 1 } },
        ],
      },
      jwb.token,
    );
    expect(r.data.accepted).toBe(1);
    expect(r.data.rejected.map((x) => x.index)).toEqual([0]);
    const evl = await addDevice(t, 'evaluate', 'ING-EVL-1', admin);
    const nul = await report(
      {
        ser_num: evl.ser_num,
        id: 'n1',
        ts: now(),
        type: 'report',
        data: { star_level: 5, content: 'a\u0000b' },
      },
      evl.token,
    );
    // Over HTTP the whole request is refused; over MQTT the pipeline refuses the message.
    expect(nul).toMatchObject({ code: CODE.badRequest, message: '请求内容包含非法字符' });
    const raw = JSON.stringify({
      id: 'n9',
      ts: now(),
      type: 'report',
      data: { star_level: 5, content: 'a\u0000b' },
    });
    expect(
      await t.ctx.pipeline.submitRaw(
        { ...evl, kind: 'evaluate', gateway_id: null, industrial_type: null },
        Buffer.from(raw),
      ),
    ).toEqual({
      ok: false,
      error: '消息包含非法字符',
    });
    const ok = await report(
      { ser_num: evl.ser_num, id: 'n2', ts: now(), type: 'report', data: { star_level: 5, content: '干净' } },
      evl.token,
    );
    expect(ok.data.accepted).toBe(1);
  });

  it('rejects a message above MAX_MESSAGE_BYTES in a batch and stores the others', async () => {
    const before = await stored(gw.id);
    const r = await report({
      ser_num: gw.ser_num,
      messages: [
        { id: 'big-http', ts: now(), type: 'report', data: { co2: 1, pad: 'x'.repeat(MAX_MESSAGE_BYTES) } },
        { id: 'small-http', ts: now(), type: 'report', data: { co2: 2 } },
      ],
    });
    expect(r.data).toMatchObject({
      accepted: 1,
      rejected: [{ index: 0, error: '消息过大：单条消息最多 64 KB' }],
    });
    expect(await stored(gw.id)).toBe(before + 1);
  });

  it('refuses a body above MAX_REPORT_BODY_BYTES with a message saying what to do', async () => {
    const res = await postReport(t, gw.token, {
      ser_num: gw.ser_num,
      messages: [{ id: 'huge', ts: now(), type: 'report', data: { pad: 'x'.repeat(MAX_REPORT_BODY_BYTES) } }],
    });
    expect(res.json()).toMatchObject({
      code: CODE.tooLarge,
      message: '上报内容过大：一次请求最多 1 MB，单条消息最多 64 KB，请分批上报',
    });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await postReport(t, gw.token, '{"ser_num":');
    expect(res.json()).toMatchObject({ code: CODE.badRequest });
  });
});

describe('MQTT transport (embedded broker)', () => {
  const connect = (ser: string, password: string, clientId = ser) =>
    mqtt.connectAsync(mqttUrl, {
      clientId,
      username: ser,
      password,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });

  it('refuses a wrong token and a client id that is not the serial number', async () => {
    await expect(connect(gw.ser_num, 'wrong')).rejects.toThrow();
    await expect(connect(gw.ser_num, gw.token, 'someone-else')).rejects.toThrow();
  });

  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'admitted',
      (err: { code?: number }) => err.code,
    );

  it("refuses a deleted device's token right after the delete, and admits it again once restored", async () => {
    const d = await addDevice(t, 'gateway', 'ING-GW-DEL', admin);
    // Signed in once: the directory holds the device in memory now.
    await (await connect(d.ser_num, d.token)).endAsync();
    const update = (is_delete: boolean) =>
      t.post(kindUrl('gateway', 'update'), { id: d.id, is_delete }, { token: admin });
    expect((await update(true)).code).toBe(200);
    expect(await refusal(connect(d.ser_num, d.token))).toBe(4);
    expect((await update(false)).code).toBe(200);
    expect(await refusal(connect(d.ser_num, d.token).then((c) => c.endAsync()))).toBe('admitted');
  });

  it('admits many devices signing in at once and refuses each wrong token among them', async () => {
    const fleet = await Promise.all(
      Array.from({ length: 40 }, (_, i) => addDevice(t, 'gateway', `ING-STORM-${i}`, admin)),
    );
    const outcomes = await Promise.all(
      fleet.map((d, i) =>
        refusal(
          connect(d.ser_num, i % 4 === 0 ? `${d.token}x` : d.token).then(async (c) => {
            await c.endAsync();
          }),
        ),
      ),
    );
    expect(outcomes).toEqual(fleet.map((_, i) => (i % 4 === 0 ? 4 : 'admitted')));
  });

  it('acknowledges a QoS 1 report only once it is stored', async () => {
    const c = await connect(jwb.ser_num, jwb.token);
    const before = await stored(jwb.id);
    await c.publishAsync(
      TOPIC.up(jwb.ser_num),
      JSON.stringify({ id: 'q1', ts: now(), type: 'report', data: { warning: 32768, liquid: 120 } }),
      { qos: 1 },
    );
    // PUBACK arrived: the row must already be there, no waiting.
    expect(await stored(jwb.id)).toBe(before + 1);
    const list = await t.get<{ list: { id: number; warning: number }[] }>(
      `${DEVICE_KINDS.jwb.base}/jwbs`,
      undefined,
      { token: admin },
    );
    expect(list.data.list.find((d) => d.id === jwb.id)!.warning).toBe(32768);
    await c.endAsync();
  });

  it('drops reports published on another device topic and disconnects the publisher', async () => {
    const c = await connect(jwb.ser_num, jwb.token);
    const before = await stored(gw.id);
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    void c
      .publishAsync(TOPIC.up(gw.ser_num), JSON.stringify({ id: 'x', ts: now(), type: 'report', data: {} }), {
        qos: 1,
      })
      .catch(() => {});
    await closed;
    expect(await stored(gw.id)).toBe(before);
    await c.endAsync(true);
  });

  it('delivers a queued command on the down topic and closes it with the reply', async () => {
    const c = await connect(jwb.ser_num, jwb.token);
    const got = new Promise<{ command_id: number; type: string; op: number }>((resolve) =>
      c.on('message', (_topic, payload) => resolve(JSON.parse(payload.toString()))),
    );
    await c.subscribeAsync(TOPIC.down(jwb.ser_num), { qos: 1 });
    const queued = await t.post<{ command_id: number }>(
      JWB_API.cacheOperation,
      { id: jwb.id, op: 0 },
      { token: admin },
    );
    const cmd = await got;
    expect(cmd).toMatchObject({ command_id: queued.data.command_id, type: 'cache', op: 0 });
    await c.publishAsync(
      TOPIC.up(jwb.ser_num),
      JSON.stringify({
        id: 'r1',
        ts: now(),
        type: 'reply',
        command_id: cmd.command_id,
        ok: true,
        result: '已重启',
      }),
      { qos: 1 },
    );
    const list = await t.get<{ list: { id: number; status: string; result: string }[] }>(
      JWB_API.commands,
      { device_id: jwb.id },
      { token: admin },
    );
    expect(list.data.list.find((x) => x.id === cmd.command_id)).toMatchObject({
      status: 'done',
      result: '已重启',
    });
    await c.endAsync();
  });

  it('sends commands queued while the device was away once it listens', async () => {
    const queued = await t.post<{ command_id: number }>(
      JWB_API.cacheOperation,
      { id: jwb.id, op: 2 },
      { token: admin },
    );
    const c = await connect(jwb.ser_num, jwb.token);
    const got = new Promise<{ command_id: number }>((resolve) =>
      c.on('message', (_t, p) => resolve(JSON.parse(p.toString()))),
    );
    await c.subscribeAsync(TOPIC.down(jwb.ser_num), { qos: 1 });
    expect((await got).command_id).toBe(queued.data.command_id);
    await c.endAsync();
  });
});
