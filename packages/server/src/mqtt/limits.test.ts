import net from 'node:net';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, TOPIC } from '@se/core';
import { ADMIN_PASSWORD, addDevice, adminApp, testApp, type TestApp } from '../test/harness.ts';
import { connectHead, connectPacket, str, varint } from '../test/mqtt-bytes.ts';

const MB = 1024 * 1024;

interface Raw {
  sock: net.Socket;
  /** Resolves with the time it closed; never rejects. */
  closed: Promise<number>;
  received: Buffer[];
}
function open(port: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    sock.on('data', (d) => received.push(d));
    const closed = new Promise<number>((r) => sock.once('close', () => r(Date.now())));
    sock.on('error', () => {});
    sock.once('connect', () => resolve({ sock, closed, received }));
    sock.once('error', reject);
  });
}
const write = (s: net.Socket, b: Buffer) =>
  new Promise<boolean>((r) => {
    if (s.destroyed) return r(false);
    s.write(b, (err) => r(!err));
  });
/** Whether `p` settles within `ms`. */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
/** CONNACK with return code 0. */
const accepted = (r: Raw) =>
  Buffer.concat(r.received)
    .subarray(0, 4)
    .equals(Buffer.from([0x20, 2, 0, 0]));
async function connack(r: Raw) {
  for (let i = 0; i < 100 && Buffer.concat(r.received).length < 4; i++)
    await new Promise((res) => setTimeout(res, 20));
  return accepted(r);
}

const now = () => Math.floor(Date.now() / 1000);
/** A valid report padded (with a key the schema drops) to exactly `bytes` bytes. */
function reportOf(bytes: number, id: string) {
  const base = { id, ts: now(), type: 'report', data: { co2: 500, pad: '' } };
  const pad = bytes - Buffer.byteLength(JSON.stringify(base));
  base.data.pad = 'x'.repeat(pad);
  const s = JSON.stringify(base);
  expect(Buffer.byteLength(s)).toBe(bytes);
  return s;
}

async function addGateway(t: TestApp, admin: string, ser: string) {
  return await addDevice(t, 'gateway', ser, admin);
}
const stored = async (t: TestApp, id: number) =>
  (
    await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM telemetry WHERE device_id = $1`, [id])
  )[0]!.n;

describe('embedded broker: packet size limits', () => {
  let t: TestApp;
  let admin: string;
  let gw: { id: number; ser_num: string; token: string };
  let port: number;
  const device = () =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId: gw.ser_num,
      username: gw.ser_num,
      password: gw.token,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });

  beforeAll(async () => {
    ({ t, admin } = await adminApp({ mqttPort: 0, host: '127.0.0.1' }));
    gw = await addGateway(t, admin, 'LIM-GW-1');
    port = t.ctx.broker!.port;
  });
  afterAll(() => t.close());

  it('closes an unauthenticated CONNECT declaring 250 MB after its first bytes', async () => {
    const r = await open(port);
    await write(r.sock, connectHead(250 * MB));
    expect(await within(r.closed, 1000)).toBe(true);
    // Closed without a CONNACK: nothing an attacker can learn or wait for.
    expect(r.received.length).toBe(0);
  });

  it('does not buffer five CONNECT bombs of 5 MB each', async () => {
    const before = process.memoryUsage().arrayBuffers;
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const sent = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const r = await open(port);
        let bytes = 0;
        if (await write(r.sock, connectHead(250 * MB))) bytes += 8;
        while (bytes < 5 * MB && (await write(r.sock, chunk))) bytes += chunk.length;
        r.sock.end();
        await within(r.closed, 2000);
        return bytes;
      }),
    );
    const grown = process.memoryUsage().arrayBuffers - before;
    // The server stopped reading long before 5 MB arrived, and kept none of it.
    for (const bytes of sent) expect(bytes).toBeLessThan(5 * MB);
    expect(grown).toBeLessThan(4 * MB);
  });

  it('closes a connection whose first packet is not a CONNECT', async () => {
    const r = await open(port);
    // A SUBSCRIBE before any CONNECT.
    await write(r.sock, Buffer.concat([Buffer.from([0x82, 8, 0, 1]), str('a/b'), Buffer.from([1])]));
    expect(await within(r.closed, 1000)).toBe(true);
  });

  it('closes a signed-in device declaring a PUBLISH above the largest message', async () => {
    const r = await open(port);
    await write(r.sock, connectPacket(gw.ser_num, gw.token));
    expect(await connack(r)).toBe(true);
    const before = await stored(t, gw.id);
    // PUBLISH QoS 1 declaring 100 MB; only the topic follows.
    await write(r.sock, Buffer.concat([Buffer.from([0x32]), varint(100 * MB), str(TOPIC.up(gw.ser_num))]));
    expect(await within(r.closed, 1000)).toBe(true);
    expect(Buffer.concat(r.received).length).toBe(4); // the CONNACK, no PUBACK
    expect(await stored(t, gw.id)).toBe(before);
  });

  it('neither acknowledges nor stores a message one byte above the largest, and disconnects', async () => {
    const c = await device();
    const before = await stored(t, gw.id);
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    let acked = false;
    void c
      .publishAsync(TOPIC.up(gw.ser_num), reportOf(MAX_MESSAGE_BYTES + 1, 'big-1'), { qos: 1 })
      .then(() => (acked = true))
      .catch(() => {});
    expect(await within(closed, 2000)).toBe(true);
    await c.endAsync(true);
    await t.ctx.pipeline.flush();
    expect(acked).toBe(false);
    expect(await stored(t, gw.id)).toBe(before);
  });

  it('acknowledges and stores a message of exactly the largest size', async () => {
    const c = await device();
    const before = await stored(t, gw.id);
    await c.publishAsync(TOPIC.up(gw.ser_num), reportOf(MAX_MESSAGE_BYTES, 'max-1'), { qos: 1 });
    expect(await stored(t, gw.id)).toBe(before + 1);
    await c.endAsync();
  });

  it('keeps serving well-behaved devices after the bombs', async () => {
    const c = await device();
    const before = await stored(t, gw.id);
    for (let i = 0; i < 5; i++)
      await c.publishAsync(
        TOPIC.up(gw.ser_num),
        JSON.stringify({ id: `ok-${i}`, ts: now(), type: 'report', data: { co2: 600 + i } }),
        { qos: 1 },
      );
    expect(await stored(t, gw.id)).toBe(before + 5);
    await c.endAsync();
  });
});

describe('embedded broker: per-address connection caps', () => {
  let t: TestApp;
  let admin: string;
  let port: number;
  const devices: { id: number; ser_num: string; token: string }[] = [];

  beforeAll(async () => {
    t = await testApp({
      mqttPort: 0,
      host: '127.0.0.1',
      mqttMaxConnectionsPerIp: 4,
      mqttMaxPendingPerIp: 2,
      mqttConnectTimeoutMs: 500,
    });
    admin = await t.login('admin', ADMIN_PASSWORD);
    for (let i = 0; i < 5; i++) devices.push(await addGateway(t, admin, `CAP-GW-${i}`));
    port = t.ctx.broker!.port;
  });
  afterAll(() => t.close());

  it('refuses a third connection from one address while two have not signed in', async () => {
    const a = await open(port);
    const b = await open(port);
    const c = await open(port);
    expect(await within(c.closed, 1000)).toBe(true);
    expect(await within(a.closed, 100)).toBe(false);
    // Signing in frees the place.
    await write(a.sock, connectPacket(devices[0]!.ser_num, devices[0]!.token));
    expect(await connack(a)).toBe(true);
    const d = await open(port);
    expect(await within(d.closed, 200)).toBe(false);
    for (const r of [a, b, d]) r.sock.destroy();
    await Promise.all([a.closed, b.closed, d.closed]);
  });

  it('closes a connection that has not signed in within the CONNECT timeout', async () => {
    const r = await open(port);
    const start = Date.now();
    expect(await within(r.closed, 3000)).toBe(true);
    expect((await r.closed) - start).toBeGreaterThanOrEqual(400);
  });

  it('refuses the fifth connection from one address, signed in or not', async () => {
    const signed: Raw[] = [];
    for (const d of devices.slice(0, 4)) {
      const r = await open(port);
      await write(r.sock, connectPacket(d.ser_num, d.token));
      expect(await connack(r)).toBe(true);
      signed.push(r);
    }
    const fifth = await open(port);
    await write(fifth.sock, connectPacket(devices[4]!.ser_num, devices[4]!.token));
    expect(await within(fifth.closed, 1000)).toBe(true);
    expect(accepted(fifth)).toBe(false);
    // One leaves: the fifth device gets in.
    signed.pop()!.sock.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const again = await open(port);
    await write(again.sock, connectPacket(devices[4]!.ser_num, devices[4]!.token));
    expect(await connack(again)).toBe(true);
    for (const r of [...signed, again]) r.sock.destroy();
  });
});
