// A normal device import against a running console on its embedded PGlite: 5,000 rows of
// .xlsx posted to the gateway import route while /api/health is polled every 20 ms. For each
// run: the import's time and the longest gap between two health answers (the embedded
// database has one connection, so the import's transaction holds every other request).
// Usage: npm run bench:import [-- repeats]
import { DEVICE_KINDS } from '../packages/core/src/index.ts';
import { xlsxBuffer } from '../packages/server/src/modules/devices/spreadsheet.ts';
import { XLSX_TYPE } from '../packages/server/src/test/hostile-files.ts';
import { BENCH_PASSWORD, postWhilePolling, startConsole } from './server.ts';

const repeats = Number(process.argv[2] ?? 3);
const k = DEVICE_KINDS.gateway;

const server = await startConsole({ env: { LOG_LEVEL: 'fatal' } });
const login = await fetch(`${server.http}/api/v1/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ filter: 'admin', password: BENCH_PASSWORD }),
});
const token = ((await login.json()) as { data: { auth_token: string } }).data.auth_token;

function rowsXlsx(run: number) {
  const header = ['序列号', '描述', '位置', '经度', '纬度', '类型'];
  const rows = Array.from({ length: 5000 }, (_, i) => ({
    c0: `BENCH-IMPORT-${run}-${i}`,
    c1: `设备${i}`,
    c2: '杭州市西湖区北山街1号',
    c3: '120.1551',
    c4: '30.2741',
    c5: '40',
  }));
  return xlsxBuffer(
    's',
    header.map((h, i) => ({ header: h, key: `c${i}` })),
    rows,
  );
}

console.log(`5,000-row .xlsx import into ${k.label}, ${repeats} runs`);
console.log(`${'run'.padEnd(4)} ${'code'.padStart(4)} ${'ms'.padStart(7)} ${'health gap ms'.padStart(14)}`);
for (let run = 1; run <= repeats; run++) {
  const body = await rowsXlsx(run);
  await new Promise((r) => setTimeout(r, 300));
  const env = await postWhilePolling(server, `${k.base}/import-${k.plural}`, token, body, XLSX_TYPE);
  const { ms, slowest } = env;
  const data = env.data as { imported?: number } | null;
  if (data?.imported !== 5000) console.log(`  unexpected answer: ${env.code} ${env.message}`);
  console.log(
    `${String(run).padEnd(4)} ${String(env.code).padStart(4)} ${ms.toFixed(0).padStart(7)} ${slowest.toFixed(0).padStart(14)}`,
  );
}
await server.stop();
