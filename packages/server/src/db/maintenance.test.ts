import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dealers, testApp, type TestApp } from '../test/harness.ts';
import { vacuumListTables } from './maintenance.ts';

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
  await t.ctx.db.query(
    `INSERT INTO maintenance_records (kind, status, device_id, ser_num, equipment_type_id, description,
        reporter_id, due_at)
     SELECT 'repair', 0, d.id, d.ser_num, (SELECT id FROM equipment_types WHERE code = 'gateway' AND user_id IS NULL),
            '报修', $1::int, now() FROM devices d WHERE d.ser_num LIKE 'VAC-%'`,
    [dealer.id],
  );
});
afterAll(() => t.close());

describe('vacuumListTables', () => {
  it('leaves the closure, binding and work-order tables all-visible', async () => {
    await vacuumListTables(t.ctx.db);
    const rows = await t.ctx.db.query<{ relname: string; relpages: number; relallvisible: number }>(
      `SELECT relname, relpages, relallvisible FROM pg_class
        WHERE relname IN ('device_access', 'device_bindings', 'maintenance_records') ORDER BY relname`,
    );
    expect(rows.map((r) => r.relname)).toEqual(['device_access', 'device_bindings', 'maintenance_records']);
    for (const r of rows) {
      expect(r.relpages).toBeGreaterThan(0);
      expect(r.relallvisible).toBe(r.relpages);
    }
  });
});
