// Runs against a real external broker (MQTT_URL, Mosquitto on CI): npm test adds this
// project only when MQTT_URL is set.
import crypto from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_KINDS, JWB_API, MAX_MESSAGE_BYTES, TOPIC } from '@se/core';
import { adminApp, type TestApp } from '../test/harness.ts';
import { CONNECTIONS } from './external.ts';

const url = process.env.MQTT_URL!;
const run = crypto.randomBytes(4).toString('hex');
let t: TestApp;
let admin: string;
let jwb: { id: number; ser_num: string; token: string };

beforeAll(async () => {
  ({ t, admin } = await adminApp({
    mqttUrl: url,
    mqttClientId: `console-test-${run}`,
    mqttShareGroup: `t${run}`,
  }));
  jwb = (
    await t.post<typeof jwb>(`${DEVICE_KINDS.jwb.base}/add-jwb`, { ser_num: `MOSQ-${run}` }, { token: admin })
  ).data;
});
afterAll(async () => {
  await t?.close();
  // The server's session is persistent (clean: false); end it so the broker stops queueing for it.
  for (let i = 0; i < CONNECTIONS; i++) {
    const wipe = await mqtt.connectAsync(url, {
      clientId: `console-test-${run}-${i}`,
      clean: true,
      protocolVersion: 4,
    });
    await wipe.endAsync();
  }
});

const stored = async () =>
  (
    await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM telemetry WHERE device_id = $1`, [
      jwb.id,
    ])
  )[0]!.n;
const until = async (pred: () => Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('external broker (Mosquitto)', () => {
  it('stores reports that devices publish at the broker, each message once', async () => {
    const c = await mqtt.connectAsync(url, {
      clientId: jwb.ser_num,
      username: jwb.ser_num,
      password: jwb.token,
      protocolVersion: 4,
    });
    const msgs = Array.from({ length: 50 }, (_, i) => ({
      id: `e${i}`,
      ts: Date.now(),
      type: 'report',
      data: { liquid: 100 + i },
    }));
    for (const m of msgs) await c.publishAsync(TOPIC.up(jwb.ser_num), JSON.stringify(m), { qos: 1 });
    // A resent message (same id and ts) is stored once.
    await c.publishAsync(TOPIC.up(jwb.ser_num), JSON.stringify(msgs[0]), { qos: 1 });
    await until(async () => (await stored()) >= 50);
    await new Promise((r) => setTimeout(r, 300));
    expect(await stored()).toBe(50);
    await c.endAsync();
  });

  it('drops a message above MAX_MESSAGE_BYTES that the broker let through, and goes on', async () => {
    const c = await mqtt.connectAsync(url, {
      clientId: jwb.ser_num,
      username: jwb.ser_num,
      password: jwb.token,
      protocolVersion: 4,
    });
    const before = await stored();
    const big = { id: 'big-ext', ts: Date.now(), type: 'report', data: { liquid: 1, pad: '' } };
    big.data.pad = 'x'.repeat(MAX_MESSAGE_BYTES + 1 - JSON.stringify(big).length);
    await c.publishAsync(TOPIC.up(jwb.ser_num), JSON.stringify(big), { qos: 1 });
    const small = { id: 'after-big', ts: Date.now(), type: 'report', data: { liquid: 2 } };
    await c.publishAsync(TOPIC.up(jwb.ser_num), JSON.stringify(small), { qos: 1 });
    await until(async () => (await stored()) > before);
    await new Promise((r) => setTimeout(r, 300));
    const ids = await t.ctx.db.query<{ msg_id: string }>(
      `SELECT msg_id FROM telemetry WHERE device_id = $1 AND msg_id = ANY($2::text[])`,
      [jwb.id, ['big-ext', 'after-big']],
    );
    expect(ids.map((r) => r.msg_id)).toEqual(['after-big']);
    await c.endAsync();
  });

  it('sends commands to the device through the broker', async () => {
    const c = await mqtt.connectAsync(url, {
      clientId: jwb.ser_num,
      username: jwb.ser_num,
      password: jwb.token,
      protocolVersion: 4,
    });
    const got = new Promise<{ command_id: number; op: number }>((r) =>
      c.on('message', (_t, p) => r(JSON.parse(p.toString()))),
    );
    await c.subscribeAsync(TOPIC.down(jwb.ser_num), { qos: 1 });
    const q = await t.post<{ command_id: number }>(
      JWB_API.cacheOperation,
      { id: jwb.id, op: 1 },
      { token: admin },
    );
    expect(await got).toMatchObject({ command_id: q.data.command_id, op: 1 });
    await c.endAsync();
  });

  it('answers the broker auth and ACL hooks', async () => {
    const auth = (body: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/v1/device/mqtt-auth', payload: body }).then((r) => r.json());
    expect(await auth({ username: jwb.ser_num, password: jwb.token, clientid: jwb.ser_num })).toMatchObject({
      result: 'allow',
      ok: true,
    });
    expect(await auth({ username: jwb.ser_num, password: 'wrong', clientid: jwb.ser_num })).toMatchObject({
      result: 'deny',
    });
    expect(await auth({ username: jwb.ser_num, password: jwb.token, clientid: 'other' })).toMatchObject({
      result: 'deny',
    });
    const acl = (body: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/v1/device/mqtt-acl', payload: body }).then((r) => r.json());
    expect(
      await acl({ username: jwb.ser_num, topic: TOPIC.up(jwb.ser_num), action: 'publish' }),
    ).toMatchObject({ result: 'allow' });
    expect(await acl({ username: jwb.ser_num, topic: TOPIC.up('someone'), action: 'publish' })).toMatchObject(
      { result: 'deny' },
    );
    expect(await acl({ username: jwb.ser_num, topic: TOPIC.down(jwb.ser_num), acc: '4' })).toMatchObject({
      result: 'allow',
    });
  });
});
