// Memory of the console under MQTT size bombs (issue 12): five unauthenticated CONNECTs
// declaring 250 MB, each streaming up to `mb` MB, then a signed-in device's PUBLISH
// declaring 100 MB and streaming it. Prints the console's RSS when idle and after, how many
// bytes each attacker got in before the console closed the connection, and whether the
// PUBLISH was acknowledged. Linux only (reads /proc/<pid>/status).
// Usage: npm run bench:mqtt-bombs [-- mb]
import fs from 'node:fs';
import net from 'node:net';
import { TOPIC } from '@se/core';
import { ConsoleApi, ensureDevices } from '../packages/server/src/sim/fleet.ts';
import { connectHead, connectPacket, str, varint } from '../packages/server/src/test/mqtt-bytes.ts';
import { BENCH_PASSWORD, startConsole } from './server.ts';

const mb = Number(process.argv[2] ?? 50);
const MB = 1024 * 1024;

const rssMb = (pid: number) => {
  const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!;
  return Number(kb) / 1024;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens a socket, sends `head`, then streams up to `total` bytes; returns what got through. */
async function bomb(port: number, head: Buffer[], total: number) {
  const sock = net.connect(port, '127.0.0.1');
  sock.on('error', () => {});
  await new Promise((r) => sock.once('connect', r));
  const got: Buffer[] = [];
  sock.on('data', (d) => got.push(d));
  let closed = false;
  sock.once('close', () => (closed = true));
  const write = (b: Buffer) => new Promise<boolean>((r) => (closed ? r(false) : sock.write(b, (e) => r(!e))));
  const start = Date.now();
  for (const h of head) {
    await write(h);
    // The CONNECT of a signed-in attacker waits for its CONNACK.
    if (head.length > 1) while (!closed && Buffer.concat(got).length < 4) await sleep(10);
  }
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  let sent = 0;
  while (sent < total && (await write(chunk))) sent += chunk.length;
  await Promise.race([new Promise((r) => sock.once('close', r)), sleep(2000)]);
  const ms = Date.now() - start;
  const wasClosed = closed;
  sock.destroy();
  return { sent, ms, closed: wasClosed, received: Buffer.concat(got) };
}

const server = await startConsole();
const pid = server.child.pid!;
const port = Number(new URL(server.mqtt).port);
const api = await new ConsoleApi(server.http).login('admin', BENCH_PASSWORD);
const [dev] = await ensureDevices(api, 'gateway', 'BOMB-GW', 1, () => 'bomb');

await sleep(2000);
const idle = rssMb(pid);

const connects = await Promise.all(
  Array.from({ length: 5 }, () => bomb(port, [connectHead(250 * MB)], mb * MB)),
);

const publish = await bomb(
  port,
  [
    connectPacket(dev!.ser_num, dev!.token),
    Buffer.concat([Buffer.from([0x32]), varint(100 * MB), str(TOPIC.up(dev!.ser_num)), Buffer.from([0, 1])]),
  ],
  100 * MB,
);
await sleep(1000);
const after = rssMb(pid);
await server.stop();

const fmt = (n: number) => `${(n / MB).toFixed(2)} MB`;
console.log(
  `console RSS idle ${idle.toFixed(0)} MB, after the bombs ${after.toFixed(0)} MB (${(after - idle).toFixed(0)} MB more)`,
);
connects.forEach((c, i) =>
  console.log(
    `CONNECT #${i + 1} declaring 250 MB: ${fmt(c.sent)} of ${mb} MB written before the close, ${c.closed ? `closed after ${c.ms} ms` : 'still open'}`,
  ),
);
const puback = publish.received.subarray(4, 8).equals(Buffer.from([0x40, 2, 0, 1]));
console.log(
  `signed-in PUBLISH declaring 100 MB: ${fmt(publish.sent)} written before the close, ${publish.closed ? `closed after ${publish.ms} ms` : 'still open'}, ${puback ? 'acknowledged' : 'not acknowledged'}`,
);
