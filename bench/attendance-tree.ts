// The department tree of /ci-organization (issue 16): 2,000 departments in 10 levels with
// 5,000 employees, loaded the way the console does it (one query: every department with its
// head and direct head-count, subtree counts summed from the paths) against the baseline
// the issue warns of: one query per node (its children and their counts), walking the tree.
// Embedded PGlite in memory by default; PostgreSQL with DATABASE_URL set (a scratch database).
// Usage: [DATABASE_URL=postgres://…] npm run bench:attendance-tree [-- departments employees repeats]
import { scratchDb } from './scratch-db.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { departmentTree } from '../packages/server/src/modules/attendance/repo.ts';

const arg = (i: number, d: number) => Number(process.argv[i] ?? d);
const departments = arg(2, 2_000);
const employees = arg(3, 5_000);
const repeats = arg(4, 30);
const LEVELS = 10;

const pgBase = process.env.DATABASE_URL || '';
const scratch = await scratchDb('att_tree');
const db = scratch.db;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

try {
  await migrate(db);
  const [org] = await db.query<{ id: number }>(
    `INSERT INTO organisations (name) VALUES ('基准组织') RETURNING id`,
  );
  const orgId = org!.id;
  // Level 1 is the root; each later level holds an equal share, every node under a random
  // node of the level above: a tree exactly LEVELS deep.
  const ids: number[][] = [];
  const [root] = await db.query<{ id: number }>(
    `INSERT INTO att_departments (org_id, name, path) VALUES ($1, '根', '/') RETURNING id`,
    [orgId],
  );
  await db.query(`UPDATE att_departments SET path = '/' || id || '/' WHERE id = $1`, [root!.id]);
  ids.push([root!.id]);
  const perLevel = Math.ceil((departments - 1) / (LEVELS - 1));
  for (let level = 1; level < LEVELS; level++) {
    const parents = ids[level - 1]!;
    const n = Math.min(perLevel, departments - 1 - (level - 1) * perLevel);
    const pick = Array.from({ length: n }, (_, i) => parents[(i * 7919) % parents.length]!);
    const rows = await db.query<{ id: number }>(
      `INSERT INTO att_departments (org_id, parent_id, name, path)
       SELECT $1, p, '部门' || $2 || '-' || n, '/' FROM unnest($3::int[]) WITH ORDINALITY AS u(p, n) RETURNING id`,
      [orgId, level, pick],
    );
    await db.query(
      `UPDATE att_departments d SET path = p.path || d.id || '/' FROM att_departments p
        WHERE d.parent_id = p.id AND d.id = ANY($1::int[])`,
      [rows.map((r) => r.id)],
    );
    ids.push(rows.map((r) => r.id));
  }
  const all = ids.flat();
  await db.query(
    `INSERT INTO att_employees (org_id, department_id, number, name)
     SELECT $1, ($2::int[])[1 + (i * 31) % array_length($2::int[], 1)], 'E' || i, '员工' || i
       FROM generate_series(1, $3::int) i`,
    [orgId, all, employees],
  );
  await db.query('ANALYZE');
  console.log(
    `${all.length} departments in ${ids.length} levels, ${employees} employees (${pgBase ? 'PostgreSQL' : 'PGlite'})`,
  );

  // The console's way: one query, subtree counts from the paths.
  const oneQuery = async () => {
    const rows = await departmentTree(db, orgId);
    const total = new Map<number, number>();
    for (const r of rows)
      for (const id of r.path.split('/').filter(Boolean))
        total.set(Number(id), (total.get(Number(id)) ?? 0) + r.employee_count);
    return rows.length;
  };
  // Baseline: a query per node for its children with their counts (a lazily expanded tree
  // opened all the way, or a recursive loader).
  const perNode = async () => {
    let seen = 0;
    const queue = [root!.id];
    while (queue.length) {
      const id = queue.shift()!;
      const kids = await db.query<{ id: number }>(
        `SELECT d.id, d.name, (SELECT count(*) FROM att_employees e WHERE e.department_id = d.id AND NOT e.is_delete AND e.status = 1)::int AS n
           FROM att_departments d WHERE d.parent_id = $1 AND NOT d.is_delete ORDER BY d.sort, d.id`,
        [id],
      );
      seen++;
      for (const k of kids) queue.push(k.id);
    }
    return seen;
  };
  const time = async (fn: () => Promise<number>, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const got = await fn();
      out.push(performance.now() - t0);
      if (got !== all.length) throw new Error(`loaded ${got} of ${all.length} departments`);
    }
    return out;
  };
  await time(oneQuery, 3);
  await time(perNode, 1);
  const mine = await time(oneQuery, repeats);
  const base = await time(perNode, Math.max(3, Math.ceil(repeats / 5)));
  const line = (name: string, xs: number[]) =>
    `${name.padEnd(22)} p50 ${pct(xs, 0.5).toFixed(1).padStart(8)} ms   p99 ${pct(xs, 0.99).toFixed(1).padStart(8)} ms`;
  console.log(line('baseline: per node', base));
  console.log(line('one query (console)', mine));
  console.log(
    `ratio baseline/one-query: p50 ${(pct(base, 0.5) / pct(mine, 0.5)).toFixed(1)}×, p99 ${(pct(base, 0.99) / pct(mine, 0.99)).toFixed(1)}×`,
  );
} finally {
  await scratch.drop();
}
