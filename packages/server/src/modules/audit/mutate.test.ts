import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Caller } from '../../context.ts';
import type { Patchable } from '../../db/update.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { diff, mutate, sameValue, type Mutation } from './mutate.ts';

// The one update path (mutate.ts over db/update.ts): the diff is by value, and the row and
// its audit entry are written in one transaction or not at all.

describe('diff', () => {
  it('compares arrays, dates and JSON objects by value', () => {
    const row = {
      ids: [1, 2],
      at: new Date('2026-01-01T00:00:00Z'),
      meta: { a: 1, b: [{ c: 'x' }] },
      name: 'n',
      gone: null as string | null,
    };
    const same = diff(row, {
      ids: [1, 2],
      at: new Date('2026-01-01T00:00:00Z'),
      meta: { b: [{ c: 'x' }], a: 1 },
      name: 'n',
      gone: null,
    });
    expect(same).toEqual({ before: {}, after: {}, changed: false });
    const other = diff(row, {
      ids: [2, 1],
      at: new Date('2026-01-01T00:00:01Z'),
      meta: { a: 1, b: [{ c: 'y' }] },
      name: undefined, // not changing
      gone: 'back',
    });
    expect(other.changed).toBe(true);
    expect(other.before).toEqual({ ids: [1, 2], at: row.at, meta: row.meta, gone: null });
    expect(other.after).toEqual({
      ids: [2, 1],
      at: new Date('2026-01-01T00:00:01Z'),
      meta: { a: 1, b: [{ c: 'y' }] },
      gone: 'back',
    });
  });

  it('tells apart values that only look alike', () => {
    expect(sameValue([1, 2], [1, 2, 3])).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameValue(null, {})).toBe(false);
    expect(sameValue(0, '0')).toBe(false);
    expect(sameValue(new Date(5), 5)).toBe(false);
    expect(sameValue([], {})).toBe(false);
  });
});

describe('mutate', () => {
  let t: TestApp;
  const caller: Caller = { id: 1, userName: 'admin', permission: 0, sessionId: 0 };
  type Probe = { id: number; name: string; tags: number[]; is_delete: boolean };
  const PROBES: Patchable<'name' | 'tags' | 'is_delete'> = {
    table: 'mutate_probe',
    columns: ['name', 'tags', 'is_delete'],
    expr: { tags: (p) => `${p}::int[]` },
  };
  const target = { action: 'probe.update', entity: 'probe', entityId: 1, targetUserId: null };

  const row = async () =>
    (
      await t.ctx.db.query<Probe & { updated: boolean }>(
        `SELECT id, name, tags, is_delete, updated_at IS NOT NULL AS updated FROM mutate_probe WHERE id = 1`,
      )
    )[0]!;
  type Patch = Partial<Omit<Probe, 'id'>>;
  /** Renames the probe unless told otherwise. */
  const edit = async (m: Partial<Mutation<Probe, Patch>> = {}, ip = '') =>
    mutate<Probe, Patch>(t.ctx, caller, ip, {
      row: await row(),
      patch: { name: 'b' },
      table: PROBES,
      audit: target,
      ...m,
    });
  const entries = () =>
    t.ctx.db.query<{ action: string; before: unknown; after: unknown; ip: string; actor_id: number }>(
      `SELECT action, before, after, ip, actor_id FROM audit_log WHERE entity = 'probe' ORDER BY id`,
    );

  beforeAll(async () => {
    t = await testApp();
    await t.ctx.db.query(
      `CREATE TABLE mutate_probe (id int PRIMARY KEY, name text NOT NULL, tags int[] NOT NULL,
         is_delete boolean NOT NULL DEFAULT false, updated_at timestamptz)`,
    );
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.ctx.db.query(`DELETE FROM audit_log WHERE entity = 'probe'`);
    await t.ctx.db.query(`DELETE FROM mutate_probe`);
    await t.ctx.db.query(`INSERT INTO mutate_probe (id, name, tags) VALUES (1, 'a', '{1,2}')`);
  });

  it('writes only what changed, with its audit entry, and answers the new row', async () => {
    const r = await edit({ patch: { name: 'b', tags: [1, 2], is_delete: undefined } }, '10.0.0.1');
    expect(r.changed).toBe(true);
    expect(r.row).toMatchObject({ id: 1, name: 'b', tags: [1, 2], is_delete: false });
    expect(await row()).toMatchObject({ name: 'b', tags: [1, 2], updated: true });
    expect(await entries()).toEqual([
      { action: 'probe.update', before: { name: 'a' }, after: { name: 'b' }, ip: '10.0.0.1', actor_id: 1 },
    ]);
  });

  it('writes nothing and records nothing when nothing changed (arrays by value)', async () => {
    const r = await edit({ patch: { name: 'a', tags: [1, 2] } });
    expect(r.changed).toBe(false);
    expect((await row()).updated).toBe(false);
    expect(await entries()).toEqual([]);
  });

  it('soft-deletes and restores, hiding secrets from the entry', async () => {
    await edit({
      patch: { is_delete: true, name: 'secret' },
      audit: (c) => ({ ...target, action: c.after.is_delete ? 'probe.delete' : 'probe.update' }),
      secret: ['name'],
    });
    expect(await row()).toMatchObject({ is_delete: true, name: 'secret' });
    await edit({ patch: { is_delete: false }, audit: { ...target, action: 'probe.restore' } });
    expect((await row()).is_delete).toBe(false);
    expect(await entries()).toEqual([
      expect.objectContaining({
        action: 'probe.delete',
        before: { is_delete: false, name: '***' },
        after: { is_delete: true, name: '***' },
      }),
      expect.objectContaining({
        action: 'probe.restore',
        before: { is_delete: true },
        after: { is_delete: false },
      }),
    ]);
  });

  it('rolls the row back when its audit entry cannot be written', async () => {
    await expect(
      edit({ audit: { ...target, targetUserId: 999_999 } }), // no such user: the insert fails
    ).rejects.toThrow();
    expect(await row()).toMatchObject({ name: 'a', updated: false });
    expect(await entries()).toEqual([]);
  });

  it('records nothing when the row update or what goes with it fails', async () => {
    await expect(edit({ write: () => Promise.reject(new Error('later statement failed')) })).rejects.toThrow(
      'later statement failed',
    );
    await expect(
      edit({ patch: { name: null as unknown as string } }), // NOT NULL: the update itself fails
    ).rejects.toThrow();
    expect(await row()).toMatchObject({ name: 'a', updated: false });
    expect(await entries()).toEqual([]);
  });

  it('records nothing when a conditional write finds the row already changed', async () => {
    const r = await edit({ table: undefined, write: () => Promise.resolve(false) });
    expect(r.changed).toBe(false);
    expect(await entries()).toEqual([]);
  });

  it('refuses before writing when a check on the change throws', async () => {
    await expect(
      edit({
        check: (c) => {
          if (c.after.name !== undefined) throw new Error('refused');
        },
      }),
    ).rejects.toThrow('refused');
    expect(await row()).toMatchObject({ name: 'a', updated: false });
    expect(await entries()).toEqual([]);
  });
});
