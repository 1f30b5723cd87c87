import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dealers, testApp, type TestApp } from '../test/harness.ts';
import { vacuumAccess } from './maintenance.ts';

/**
 * PGlite runs no autovacuum, so the server vacuums the tables lists read by index alone
 * (at start and with the periodic statistics): afterwards their pages are all-visible and a
 * dealer's deep page reads the closure index without visiting its rows.
 */
let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  const { dealer } = await dealers(t, 'vac');
  await t.ctx.db.query(
    `WITH d AS (INSERT INTO devices (kind, ser_num, token)
                SELECT 'gateway', 'VAC-' || g, 'vac-tok-' || g FROM generate_series(1, 2000) g RETURNING id)
     INSERT INTO device_bindings (device_id, user_id) SELECT id, $1 FROM d`,
    [dealer.id],
  );
});
afterAll(() => t.close());

describe('vacuumAccess', () => {
  it('leaves the closure and binding tables all-visible', async () => {
    await vacuumAccess(t.ctx.db);
    const rows = await t.ctx.db.query<{ relname: string; relpages: number; relallvisible: number }>(
      `SELECT relname, relpages, relallvisible FROM pg_class
        WHERE relname IN ('device_access', 'device_bindings') ORDER BY relname`,
    );
    expect(rows.map((r) => r.relname)).toEqual(['device_access', 'device_bindings']);
    for (const r of rows) {
      expect(r.relpages).toBeGreaterThan(0);
      expect(r.relallvisible).toBe(r.relpages);
    }
  });
});
