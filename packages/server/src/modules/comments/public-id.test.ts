import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.ts';

// Migration 0016 on a database that already has toilets: each gets its own public id.

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

it('gives toilets that existed before migration 0016 distinct public ids', async () => {
  const db = t.ctx.db;
  // Back to the schema before 0016, with toilets in it.
  await db.query('ALTER TABLE toilets DROP COLUMN public_id');
  for (let i = 0; i < 20; i++) await db.query(`INSERT INTO toilets (name) VALUES ($1)`, [`旧厕所${i}`]);
  const sql = await fs.readFile(
    path.join(import.meta.dirname, '../../db/migrations/0016_toilet_public_id.sql'),
    'utf8',
  );
  for (const stmt of sql.replace(/^\s*--.*$/gm, '').split(/;\s*(?:\n|$)/)) {
    if (stmt.trim()) await db.query(stmt);
  }
  const rows = await db.query<{ public_id: string }>('SELECT public_id FROM toilets');
  expect(rows.length).toBeGreaterThanOrEqual(20);
  for (const r of rows) expect(r.public_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(new Set(rows.map((r) => r.public_id)).size).toBe(rows.length);
  // New toilets get one too, and a duplicate cannot be stored.
  const [fresh] = await db.query<{ public_id: string }>(
    `INSERT INTO toilets (name) VALUES ('新厕所') RETURNING public_id`,
  );
  expect(fresh!.public_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  await expect(
    db.query(`UPDATE toilets SET public_id = $1 WHERE name = '旧厕所0'`, [rows[1]!.public_id]),
  ).rejects.toThrow();
});
