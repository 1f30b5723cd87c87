import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, CODE, PERMISSION } from '@se/core';
import {
  TEST_PASSWORD,
  allWaysIn,
  auditOf,
  giveEmail,
  mailsTo,
  testApp,
  type TestApp,
} from '../../test/harness.ts';
import { TOO_COMMON, SAME_AS_ACCOUNT } from './password-policy.ts';

// Issue 12 point 6: a signed-in user changes their own password, and that ends every way in.

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const NEW = 'fresh-Horse-battery-9';

const change = (
  token: string,
  old: string,
  password: string,
  opts: { ip?: string; password2?: string } = {},
) =>
  t.post(
    '/api/v1/auth/change-password',
    { old_password: old, password1: password, password2: opts.password2 ?? password },
    { token, ip: opts.ip },
  );

const login = (filter: string, password: string, ip?: string) =>
  t.post('/api/v1/auth/login', { filter, password }, { ip });

describe('change-password', () => {
  it('ends the session, the od_token and the mini-program binding; the new password signs in', async () => {
    const u = await t.account('cp_ways', PERMISSION.visitor);
    await giveEmail(t, u.id, 'cp-ways@example.com');
    const { session, check } = await allWaysIn(t, 'cp_ways', TEST_PASSWORD, 'wxcp1');
    expect(await check()).toEqual({ session: 200, od: 200, open: 200 });

    const r = await change(session, TEST_PASSWORD, NEW);
    expect(r).toMatchObject({ code: 200, data: null });

    const after = await check();
    expect(after.session).toBe(CODE.revoked);
    expect(after.od).not.toBe(200);
    expect(after.open).not.toBe(200);
    // The session the caller used and the one made in setup are both gone.
    expect((await t.get('/api/v1/auth/get-permission', undefined, { token: u.token })).code).toBe(
      CODE.revoked,
    );
    expect((await login('cp_ways', TEST_PASSWORD)).code).toBe(CODE.badRequest);
    expect((await login('cp_ways', NEW)).code).toBe(200);
    expect((await login('cp-ways@example.com', NEW)).code).toBe(200);
  });

  it('records an audit entry without the password or its hash, and mails the owner', async () => {
    const u = await t.account('cp_audit', PERMISSION.visitor);
    await giveEmail(t, u.id, 'cp-audit@example.com');
    expect((await change(u.token, TEST_PASSWORD, NEW)).code).toBe(200);

    const entries = (await auditOf(t, u.id)).filter((e) => e.action === 'auth.password_changed');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: u.id, target_name: 'cp_audit' });
    expect(AUDIT_ACTIONS['auth.password_changed']).toBe('修改密码');
    const raw = await t.ctx.db.query<{ row: string }>(
      `SELECT row_to_json(a)::text AS row FROM audit_log a WHERE target_user_id = $1`,
      [u.id],
    );
    const stored = raw.map((r) => r.row).join('\n');
    expect(stored).toContain('auth.password_changed');
    expect(stored).not.toContain(NEW);
    expect(stored).not.toContain(TEST_PASSWORD);
    expect(stored).not.toContain('scrypt$');

    const mails = await mailsTo(t, 'cp-audit@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('密码已修改');
    expect(mails[0]!.body).toContain('cp_audit');
    expect(mails[0]!.body).toContain('忘记密码');
    expect(mails[0]!.body).not.toContain(NEW);
  });

  it('an account without an e-mail changes its password without a mail', async () => {
    const u = await t.account('cp_nomail', PERMISSION.visitor);
    const before = await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox`);
    expect((await change(u.token, TEST_PASSWORD, NEW)).code).toBe(200);
    const after = await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox`);
    expect(after[0]!.n).toBe(before[0]!.n);
    expect((await login('cp_nomail', NEW)).code).toBe(200);
  });

  it('refuses a wrong old password, and counts it like a failed sign-in', async () => {
    const u = await t.account('cp_wrong', PERMISSION.visitor);
    const ip = '10.90.0.1';
    const r = await change(u.token, 'not-the-password', NEW, { ip });
    expect(r).toMatchObject({ code: CODE.badRequest, message: '原密码错误' });
    // Nothing changed: the session still works and the old password still signs in.
    expect((await t.get('/api/v1/auth/get-permission', undefined, { token: u.token })).code).toBe(200);

    // Four more wrong guesses from one address lock that address out of the account,
    // for change-password and for sign-in alike: a stolen session cannot guess forever.
    for (let i = 0; i < 3; i++) {
      expect((await change(u.token, 'not-the-password', NEW, { ip })).code).toBe(CODE.badRequest);
    }
    expect((await change(u.token, 'not-the-password', NEW, { ip })).code).toBe(CODE.rateLimited);
    expect((await change(u.token, TEST_PASSWORD, NEW, { ip })).code).toBe(CODE.rateLimited);
    expect((await login('cp_wrong', TEST_PASSWORD, ip)).code).toBe(CODE.rateLimited);
    // Another address is not locked, and the password never changed.
    expect((await login('cp_wrong', TEST_PASSWORD, '10.90.0.2')).code).toBe(200);
  });

  it('refuses a common, trivial or same-as-account new password, or the old one again', async () => {
    const u = await t.account('cp_weak_owner', PERMISSION.visitor);
    await giveEmail(t, u.id, 'cp-weak@example.com');
    const cases: [string, string][] = [
      ['password123', TOO_COMMON],
      ['CP_Weak_Owner', SAME_AS_ACCOUNT],
      ['CP-WEAK@example.com', SAME_AS_ACCOUNT],
      ['abcdefghij', '密码过于简单（重复或连续的字符），请换一个更难猜的密码'],
      [TEST_PASSWORD, '新密码不能与原密码相同'],
    ];
    for (const [password, message] of cases) {
      const r = await change(u.token, TEST_PASSWORD, password);
      expect({ password, code: r.code, message: r.message }).toEqual({ password, code: 400, message });
    }
    // Still signed in, the old password unchanged.
    expect((await t.get('/api/v1/auth/get-permission', undefined, { token: u.token })).code).toBe(200);
    expect((await login('cp_weak_owner', TEST_PASSWORD)).code).toBe(200);
  });

  it('checks the form: the two new passwords must match, the length rule holds, a session is needed', async () => {
    const u = await t.account('cp_form', PERMISSION.visitor);
    const mismatch = await change(u.token, TEST_PASSWORD, NEW, { password2: `${NEW}x` });
    expect(mismatch).toMatchObject({ code: 400, message: expect.stringContaining('两次输入的密码不一致') });
    const short = await change(u.token, TEST_PASSWORD, 'a1b2');
    expect(short).toMatchObject({ code: 400, message: expect.stringContaining('密码长度不能少于8个字符') });
    // A missing or malformed field is named in Chinese, as on every other form.
    const noOld = await t.post(
      '/api/v1/auth/change-password',
      { password1: NEW, password2: NEW },
      { token: u.token },
    );
    expect(noOld).toMatchObject({ code: 400, message: expect.stringMatching(/^原密码/) });
    const anon = await t.post('/api/v1/auth/change-password', {
      old_password: TEST_PASSWORD,
      password1: NEW,
      password2: NEW,
    });
    expect(anon.code).toBe(CODE.unauthorized);
    expect((await login('cp_form', TEST_PASSWORD)).code).toBe(200);
  });

  it('is limited per address', async () => {
    const u = await t.account('cp_limit', PERMISSION.visitor);
    const ip = '10.91.0.1';
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await change(u.token, TEST_PASSWORD, 'a1b2', { ip })).code);
    expect(codes.slice(0, 10).every((c) => c === 400)).toBe(true);
    expect(codes.at(-1)).toBe(CODE.rateLimited);
  });
});
