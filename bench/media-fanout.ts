// Manifest fan-out (issue 17): one publish to N screens (default 1,000) connected to the
// embedded broker over real MQTT, each manifest built for its screen (its schedules, its
// playlist, content links signed for it) and queued as a command, until every screen has
// received it. The baseline, in the same run and to the same connected screens, is the
// existing command path: one plain command queued and delivered per screen (N volume
// commands). Prints both times, the ratio, and the manifest size.
// Usage: npm run bench:media-fanout [-- screens]
// (TEST_DB=postgres DATABASE_URL=postgres://… runs it on PostgreSQL instead of PGlite.)
import crypto from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { MEDIA_STATUS, PLAYER_OPS, TOPIC } from '../packages/core/src/index.ts';
import { testApp } from '../packages/server/src/test/harness.ts';
import { storage } from '../packages/server/src/modules/files/storage.ts';
import { insertItem } from '../packages/server/src/modules/media/repo.ts';
import { insertCommand } from '../packages/server/src/modules/jwb/repo.ts';
import {
  insertPlaylist,
  insertSchedule,
  itemsText,
} from '../packages/server/src/modules/media-players/repo.ts';
import { publishTo } from '../packages/server/src/modules/media-players/manifest.ts';

const n = Number(process.argv[2] ?? 1000);
const t = await testApp({ mqttPort: 0, host: '127.0.0.1' });
const db = t.ctx.db;
const url = `mqtt://127.0.0.1:${t.ctx.broker!.port}`;
console.log(`engine: ${db.kind}; ${n} screens over MQTT`);

const screens = await db.query<{ id: number; ser_num: string; token: string }>(
  `INSERT INTO devices (kind, ser_num, "desc", token)
   SELECT 'player', 'BENCH-PLY-' || g, '基准大屏' || g, 'tk' || g FROM generate_series(1, $1) g
   RETURNING id, ser_num, token`,
  [n],
);
const admin = (await db.query<{ id: number }>(`SELECT id FROM users WHERE user_name = 'admin'`))[0]!.id;
const picture = crypto.randomBytes(100_000);
const put = await storage(t.ctx).put('bench/fanout.jpg', picture, { contentType: 'image/jpeg' });
const items = [
  await insertItem(db, {
    user_id: admin,
    kind: 'picture',
    name: '基准图片',
    storage_key: put.key,
    mime: 'image/jpeg',
    size: put.size,
    sha256: put.sha256,
    status: MEDIA_STATUS.approved,
  }),
  await insertItem(db, {
    user_id: admin,
    kind: 'text',
    name: '基准通知',
    text_body: {
      title: '',
      body: '基准',
      font_size: 48,
      color: '#ffffff',
      background: '#000000',
      scroll_speed: 0,
    },
    status: MEDIA_STATUS.approved,
  }),
];
const playlist = await insertPlaylist(db, {
  user_id: admin,
  name: '基准列表',
  layout: 'zones',
  transition: 'fade',
  ticker: '基准',
  items: itemsText(items.map((id) => ({ media_id: id, duration_s: 10 }))),
});
const ids = screens.map((s) => s.id);
await insertSchedule(db, { user_id: admin, name: '基准排期', playlist_id: playlist, player_ids: ids });

// Every screen connects and listens; `expect(type)` resolves when all got one of that type.
let waiting: { type: string; left: Set<number>; done: () => void } | null = null;
let bytes = 0;
const clients: MqttClient[] = [];
for (let i = 0; i < screens.length; i += 50) {
  await Promise.all(
    screens.slice(i, i + 50).map(async (s) => {
      const c = await mqtt.connectAsync(url, {
        clientId: s.ser_num,
        username: s.ser_num,
        password: s.token,
        protocolVersion: 4,
        reconnectPeriod: 0,
      });
      c.on('message', (_t, p) => {
        const m = JSON.parse(p.toString()) as { type: string };
        if (!waiting || m.type !== waiting.type) return;
        if (m.type === 'manifest') bytes = p.length;
        waiting.left.delete(s.id);
        if (!waiting.left.size) waiting.done();
      });
      await c.subscribeAsync(TOPIC.down(s.ser_num), { qos: 1 });
      clients.push(c);
    }),
  );
}
const expectAll = (type: string) =>
  new Promise<void>((done) => (waiting = { type, left: new Set(ids), done }));

// Baseline: one plain command per screen through the existing path (queue, deliver).
let got = expectAll('player');
let s0 = performance.now();
for (const id of ids) {
  await insertCommand(db, {
    deviceId: id,
    type: 'player',
    op: PLAYER_OPS.volume,
    payload: { volume: 50 },
    createdBy: admin,
    timeoutMs: 600_000,
  });
  void t.ctx.commands.deliver(id);
}
await got;
const baseMs = performance.now() - s0;

// The fan-out: one publish, a manifest per screen.
got = expectAll('manifest');
s0 = performance.now();
await publishTo(t.ctx, ids, admin);
const queuedMs = performance.now() - s0;
await got;
const fanMs = performance.now() - s0;

console.log(`baseline  ${n} plain commands, queued and delivered one by one: ${baseMs.toFixed(0)} ms`);
console.log(
  `fan-out   ${n} manifests (${bytes} B each, 2 items, signed links): ${fanMs.toFixed(0)} ms (built and queued in ${queuedMs.toFixed(0)} ms)`,
);
console.log(
  `ratio fan-out / baseline: ${(fanMs / baseMs).toFixed(2)}; ${((n / fanMs) * 1000).toFixed(0)} screens/s`,
);
await Promise.all(clients.map((c) => c.endAsync(true)));
await t.close();
process.exit(0);
