import { PERMISSION } from '@se/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../context.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { assertOrgSeen } from './orgs.ts';

// Who sees an organisation: its own people (users.org_id), its manager and the accounts above
// the manager, develop; nobody else, and to them it answers exactly like a missing one.
describe('organisation visibility', () => {
  let t: TestApp;
  const caller = (id: number, permission: number): Caller => ({ id, permission, userName: '', sessionId: 0 });
  const ids: Record<string, number> = {};
  let orgA = 0;
  let orgB = 0;

  beforeAll(async () => {
    t = await testApp();
    const ss = PERMISSION.ssSuperSaled;
    ids.seller = (await t.account('org_seller', ss, 1)).id;
    ids.manager = (await t.account('org_manager', PERMISSION.ssManager, ids.seller)).id;
    ids.member = (await t.account('org_member', PERMISSION.ssUser, ids.manager)).id;
    ids.stranger = (await t.account('org_stranger', ss, 1)).id;
    const db = t.ctx.db;
    orgA = (
      await db.query<{ id: number }>(
        `INSERT INTO organisations (name, user_id) VALUES ('甲大学', $1) RETURNING id`,
        [ids.manager],
      )
    )[0]!.id;
    orgB = (
      await db.query<{ id: number }>(
        `INSERT INTO organisations (name, user_id) VALUES ('乙工厂', $1) RETURNING id`,
        [ids.stranger],
      )
    )[0]!.id;
    // A member placed in org A by an account that is not below its manager still belongs to it.
    ids.outsideMember = (await t.account('org_outside', PERMISSION.ssVisitor, ids.stranger)).id;
    await db.query('UPDATE users SET org_id = $1 WHERE id = ANY($2::int[])', [
      orgA,
      [ids.member, ids.outsideMember],
    ]);
  });
  afterAll(() => t.close());

  const sees = async (who: number, perm: number, org: number) =>
    assertOrgSeen(t.ctx, caller(who, perm), org).then(
      (o) => o.name,
      (e: Error) => e.message,
    );

  it('lets the organisation, its manager and the accounts above it in, and nobody else', async () => {
    expect(await sees(ids.manager!, PERMISSION.ssManager, orgA)).toBe('甲大学');
    expect(await sees(ids.seller!, PERMISSION.ssSuperSaled, orgA)).toBe('甲大学');
    expect(await sees(ids.member!, PERMISSION.ssUser, orgA)).toBe('甲大学');
    expect(await sees(ids.outsideMember!, PERMISSION.ssVisitor, orgA)).toBe('甲大学');
    expect(await sees(1, PERMISSION.develop, orgB)).toBe('乙工厂');
    expect(await sees(ids.stranger!, PERMISSION.ssSuperSaled, orgA)).toBe('组织不存在');
    expect(await sees(ids.member!, PERMISSION.ssUser, orgB)).toBe('组织不存在');
    expect(await sees(ids.manager!, PERMISSION.ssManager, 999_999)).toBe('组织不存在');
  });
});
