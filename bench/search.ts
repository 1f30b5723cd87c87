// Keyword search before and after the token indexes (migration 0020), same data, same
// process: N devices named in Chinese and M reviews, each keyword's list page and count
// queried one at a time, first as before (ILIKE over the devices' trigram index of migration
// 0008, which 0020 replaced, rebuilt here; reviews had none), then through keywordSql.
// Embedded PGlite in memory by default; PostgreSQL with DATABASE_URL set (a scratch database).
// Usage: [DATABASE_URL=postgres://…] npm run bench:search [-- devices reviews repeats]
import { scratchDb } from './scratch-db.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { Params, keywordSql, likeSql } from '../packages/server/src/db/sql.ts';
import { analyzeAll, seedComments, seedToilets } from './seed.ts';

const arg = (i: number, d: number) => Number(process.argv[i] ?? d);
const devices = arg(2, 100_000);
const reviews = arg(3, 200_000);
const repeats = arg(4, 20);
const PLACES = ['西湖', '断桥', '北山', '湖滨', '武林', '延安', '钱塘', '孤山', '灵隐', '龙井'];

const pgBase = process.env.DATABASE_URL || '';
const scratch = await scratchDb('search');
const db = scratch.db;

try {
  await migrate(db);
  // Before: migration 0008's trigram index, as it was.
  await db.query(
    `CREATE INDEX devices_search_trgm ON devices USING gin ((ser_num || ' ' || "desc" || ' ' || location) gin_trgm_ops) WHERE NOT is_delete`,
  );
  const t0 = Date.now();
  await db.query(
    `INSERT INTO devices (kind, ser_num, "desc", location, token)
     SELECT 'gateway', 'GW-' || lpad(i::text, 6, '0'), ($1::text[])[1 + i % 10] || '公厕' || (i / 10) || '号',
            '杭州市' || ($1::text[])[1 + i % 10] || '路' || (i % 997) || '号', md5(i::text)
       FROM generate_series(0, $2::int - 1) i`,
    [PLACES, devices],
  );
  await db.query(
    `INSERT INTO devices (kind, ser_num, "desc", token) VALUES ('gateway', 'LF-1', '雷峰塔公厕', 'x')`,
  );
  await seedComments(db, await seedToilets(db, 100), reviews);
  await analyzeAll(db);
  console.log(
    `${devices} devices and ${reviews} reviews seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s on ${pgBase ? 'PostgreSQL' : 'PGlite'}; ms per query, median and slowest of ${repeats}`,
  );

  const time = async (sql: string, values: unknown[]) => {
    const ms: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const t = performance.now();
      await db.query(sql, values);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    return { median: ms[Math.floor(ms.length / 2)]!, max: ms[ms.length - 1]! };
  };
  const DEVICE = `(d.ser_num || ' ' || d."desc" || ' ' || d.location)`;
  const cases: [string, 'devices' | 'comments', string][] = [
    ['devices', 'devices', '雷峰'],
    ['devices', 'devices', '断桥'],
    ['devices', 'devices', 'GW-0012'],
    ['reviews', 'comments', '男厕'],
    ['reviews', 'comments', '雷峰'],
  ];
  console.log(
    `${'list'.padEnd(8)}${'keyword'.padEnd(10)}${'query'.padEnd(7)}${'before'.padStart(16)}${'after'.padStart(16)}  ×`,
  );
  for (const [label, table, kw] of cases) {
    const from =
      table === 'devices' ? `devices d WHERE NOT d.is_delete AND` : `comments c WHERE NOT c.is_delete AND`;
    const order = table === 'devices' ? 'd.id DESC' : 'c.created_at DESC, c.id DESC';
    const before = new Params();
    const was = likeSql(before, [table === 'devices' ? DEVICE : 'c.content'], kw);
    const after = new Params();
    const now = keywordSql(after, table, kw);
    for (const [query, shape] of [
      ['page', (cond: string) => `SELECT 1 FROM ${from} ${cond} ORDER BY ${order} LIMIT 20`],
      ['count', (cond: string) => `SELECT count(*) FROM ${from} ${cond}`],
    ] as const) {
      const b = await time(shape(was), before.values);
      const a = await time(shape(now), after.values);
      const f = (r: { median: number; max: number }) =>
        `${r.median.toFixed(1)} / ${r.max.toFixed(1)}`.padStart(16);
      console.log(
        `${label.padEnd(8)}${kw.padEnd(10 - [...kw].filter((c) => c.charCodeAt(0) > 0x7f).length)}${query.padEnd(7)}${f(b)}${f(a)}  ${(b.median / a.median).toFixed(1)}`,
      );
    }
  }
} finally {
  await scratch.drop();
}
