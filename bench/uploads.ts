// Hostile uploads against a running console (issue 12, points 1 and 2): far cells, zip
// bombs, thousands of entries and garbage are posted to a device import route of a server
// started in its own process, while /api/health is polled. For each file: the answer, its
// time, the slowest health poll, and the server's RSS before / peak / after (read from
// /proc). The baseline, in the same run, is a normal import of 5,000 rows (.xlsx).
// Usage: npm run bench:uploads [-- repeats]
import crypto from 'node:crypto';
import fs from 'node:fs';
import { DEVICE_KINDS } from '../packages/core/src/index.ts';
import { xlsxBuffer } from '../packages/server/src/modules/devices/spreadsheet.ts';
import {
  XLSX_TYPE,
  bombXlsx,
  columnName,
  farCellXlsx,
  manyEntriesXlsx,
} from '../packages/server/src/test/hostile-files.ts';
import { BENCH_PASSWORD, postWhilePolling, startConsole } from './server.ts';

const repeats = Number(process.argv[2] ?? 3);
const MB = 1024 * 1024;
const k = DEVICE_KINDS.gateway;

const server = await startConsole({ env: { LOG_LEVEL: 'fatal' } });
const pid = server.child.pid!;
const login = await fetch(`${server.http}/api/v1/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ filter: 'admin', password: BENCH_PASSWORD }),
});
const token = ((await login.json()) as { data: { auth_token: string } }).data.auth_token;
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

let batch = 0;
async function normalXlsx() {
  batch++;
  const header = ['序列号', '描述', '位置', '经度', '纬度'];
  const rows = Array.from({ length: 5000 }, (_, i) => ({
    c0: `BENCH-${batch}-${i}`,
    c1: `设备${i}`,
    c2: '杭州',
    c3: '120.1551',
    c4: '30.2741',
  }));
  return xlsxBuffer(
    's',
    header.map((h, i) => ({ header: h, key: `c${i}` })),
    rows,
  );
}

const post = (body: Buffer, type: string) =>
  postWhilePolling(server, `${k.base}/import-${k.plural}`, token, body, type, rss);

interface Row {
  name: string;
  size: number;
  code: number;
  message: string;
  ms: number;
  slowest: number;
  before: number;
  peak: number;
  after: number;
}
const results: Row[] = [];
async function measure(name: string, build: () => Promise<Buffer> | Buffer, type = XLSX_TYPE) {
  for (let i = 0; i < repeats; i++) {
    const body = await build();
    await new Promise((r) => setTimeout(r, 300));
    const before = rss();
    const r = await post(body, type);
    await new Promise((r) => setTimeout(r, 500));
    results.push({ name, size: body.length, before, after: rss(), ...r });
  }
}

console.log(`server pid ${pid}, RSS at start ${(rss() / MB).toFixed(0)} MB; ${repeats} runs per file`);
await measure('baseline: 5,000-row .xlsx import', normalXlsx);
const bomb300 = await bombXlsx(300);
const bomb2g = await bombXlsx(2000);
const cells = await Promise.all(
  ['XFD300', 'XFD1048576', `${columnName(40)}600`, `${columnName(60)}1000`].map(farCellXlsx),
);
const garbage = crypto.randomBytes(10 * MB);
await measure('one cell at XFD300', () => cells[0]!);
await measure('one cell at XFD1048576', () => cells[1]!);
await measure('one cell at row 600 × col 40', () => cells[2]!);
await measure('one cell at row 1000 × col 60', () => cells[3]!);
await measure(`zip bomb 300 MB (${(bomb300.length / 1024).toFixed(0)} KB)`, () => bomb300);
await measure(`zip bomb 2 GB (${(bomb2g.length / 1024).toFixed(0)} KB)`, () => bomb2g);
await measure('5,000 zip entries', () => manyEntriesXlsx(5000));
await measure('10 MB of random bytes', () => garbage);
await server.stop();

const base = results.filter((r) => r.name.startsWith('baseline'));
const growth = (r: Row) => r.peak - r.before;
const baseGrowth = Math.max(...base.map(growth), 1);
const baseMs = Math.max(...base.map((r) => r.ms));
const mb = (n: number) => `${(n / MB).toFixed(0)}`.padStart(5);
console.log(
  `\n${'file'.padEnd(34)} ${'KB'.padStart(6)}  code ${'ms'.padStart(6)} ${'health'.padStart(6)}  RSS MB: before  peak after  peak growth ×baseline  time ×baseline`,
);
for (const r of results) {
  console.log(
    `${r.name.padEnd(34)} ${(r.size / 1024).toFixed(0).padStart(6)}  ${String(r.code).padStart(4)} ${r.ms.toFixed(0).padStart(6)} ${r.slowest.toFixed(0).padStart(6)}         ${mb(r.before)} ${mb(r.peak)} ${mb(r.after)}  ${(growth(r) / baseGrowth).toFixed(2).padStart(20)}  ${(r.ms / baseMs).toFixed(2).padStart(14)}`,
  );
}
const messages = new Map(results.map((r) => [r.name, r.message]));
console.log('\nanswers:');
for (const [n, m] of messages) console.log(`  ${n}: ${m}`);
const end = results.at(-1)!.after;
console.log(`\nRSS after the baseline ${mb(base.at(-1)!.after)} MB, after every hostile file ${mb(end)} MB`);
