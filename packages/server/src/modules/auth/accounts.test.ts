import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE, PERMISSION, userName } from '@se/core';
import {
  ADMIN_PASSWORD,
  TEST_PASSWORD,
  adminApp,
  allWaysIn,
  captchaFor,
  giveEmail,
  mailsTo,
  testApp,
  type TestApp,
} from '../../test/harness.ts';

// Issue 12 points 6, 7, 8 and 11: every way into an account, and who an identifier names.

let t: TestApp;
let admin: string;
beforeAll(async () => ({ t, admin } = await adminApp()));
afterAll(() => t.close());

const MANAGER = PERMISSION.dealer | PERMISSION.user;

/** Signs in with a user name, e-mail or phone number (the login form's one field). */
const signInAs = (filter: string, password = TEST_PASSWORD) =>
  t.post<{ user_id: number }>('/api/v1/auth/login', { filter, password });

/** A code mailed to `email` is only sent once per minute; tests age the last one. */
async function ageCaptchas() {
  await t.ctx.db.query(`UPDATE email_captchas SET created_at = now() - interval '2 minutes'`);
}

async function findPassword(email: string, password: string) {
  await ageCaptchas();
  const sent = await t.post('/api/v1/auth/send-email-captcha', { email, purpose: 'find-password' });
  expect(sent.code).toBe(200);
  const code = await captchaFor(t, email);
  return t.post('/api/v1/auth/find-password', {
    email,
    email_captcha: code,
    password1: password,
    password2: password,
  });
}

/** Signs the account in three ways and answers what a later attempt of each gives. */
async function waysIn(name: string, appId: string) {
  const { check } = await allWaysIn(t, name, TEST_PASSWORD, appId);
  expect(await check()).toEqual({ session: 200, od: 200, open: 200 });
  return check;
}

describe('point 6: a reset, a password change or a deletion ends every way in', () => {
  it('find-password revokes sessions, the od_token and the mini-program binding', async () => {
    const u = await t.account('ways_reset', PERMISSION.user);
    await giveEmail(t, u.id, 'ways-reset@example.com');
    const check = await waysIn('ways_reset', 'wxways1');
    expect((await findPassword('ways-reset@example.com', 'brand-new-pass-1')).code).toBe(200);
    const after = await check();
    expect(after.session).toBe(CODE.revoked);
    expect(after.od).not.toBe(200);
    expect(after.open).not.toBe(200);
  });

  it('deleting the user ends them, and restoring it does not bring them back', async () => {
    const manager = await t.account('ways_mgr', MANAGER);
    const u = await t.account('ways_del', PERMISSION.user, manager.id);
    const check = await waysIn('ways_del', 'wxways2');
    const del = await t.post('/api/v1/user/update-user', { id: u.id, is_delete: true }, { token: admin });
    expect(del.code).toBe(200);
    const after = await check();
    expect(after.session).toBe(CODE.revoked);
    expect(after.od).not.toBe(200);
    expect(after.open).not.toBe(200);
    const back = await t.post('/api/v1/user/update-user', { id: u.id, is_delete: false }, { token: admin });
    expect(back.code).toBe(200);
    const restored = await check();
    expect(restored.od).not.toBe(200);
    expect(restored.open).not.toBe(200);
  });
});

describe('point 7: user names, e-mails and phones never collide', () => {
  it('the attack: B cannot take A phone as user name, and A keeps signing in with it', async () => {
    const a = await t.account('victim_a', PERMISSION.user);
    const setPhone = await t.post(
      '/api/v1/user/update-info',
      { phone_num: '13900000077' },
      { token: a.token },
    );
    expect(setPhone.code).toBe(200);
    const b = await t.account('attacker_b', PERMISSION.user);
    const r = await t.post(
      '/api/v1/user/update-user',
      { id: b.id, user_name: '13900000077' },
      { token: b.token },
    );
    expect([400, 409]).toContain(r.code);
    expect(await signInAs('13900000077')).toMatchObject({ code: 200, data: { user_id: a.id } });
  });

  it('refuses a user name that looks like a phone number, with a Chinese reason', async () => {
    const b = await t.account('phone_like', PERMISSION.user);
    for (const name of ['13900000078', '139-0000-0079', '12345678']) {
      const r = await t.post('/api/v1/user/update-user', { id: b.id, user_name: name }, { token: admin });
      expect(r.code, name).toBe(400);
      expect(r.message).toContain('手机号');
    }
    // Short numbers and names with letters stay valid, as do the seed and demo accounts' names.
    for (const name of ['phone_like2', 'a13900000078', '12345']) {
      const r = await t.post('/api/v1/user/update-user', { id: b.id, user_name: name }, { token: admin });
      expect(r.code, name).toBe(200);
    }
    for (const name of ['admin', 'demo']) expect(userName.safeParse(name).success, name).toBe(true);
  });

  it('B cannot take A user name or e-mail as phone, and no two users share a phone', async () => {
    const a = await t.account('owner_a', PERMISSION.user);
    await giveEmail(t, a.id, 'owner-a@example.com');
    await t.post('/api/v1/user/update-info', { phone_num: '13900000080' }, { token: a.token });
    const b = await t.account('taker_b', PERMISSION.user);
    // Phones are digits only: a short all-digit user name (still allowed) is what one can hit.
    const digits = await t.account('24680', PERMISSION.user);
    const asName = await t.post('/api/v1/user/update-info', { phone_num: '24680' }, { token: b.token });
    expect(asName.code).toBe(409);
    expect((await signInAs('24680')).data.user_id).toBe(digits.id);
    const samePhone = await t.post(
      '/api/v1/user/update-info',
      { phone_num: '13900000080' },
      { token: b.token },
    );
    expect(samePhone.code).toBe(409);
    const byAdmin = await t.post(
      '/api/v1/user/update-user',
      { id: b.id, phone_num: '13900000080' },
      { token: admin },
    );
    expect(byAdmin.code).toBe(409);
    expect((await signInAs('13900000080')).data.user_id).toBe(a.id);
  });

  it('a user name equal to another account e-mail is refused at sign-up', async () => {
    const a = await t.account('mail_owner', PERMISSION.user);
    await giveEmail(t, a.id, 'mail-owner@example.com');
    await ageCaptchas();
    await t.post('/api/v1/auth/send-email-captcha', { email: 'new-signup@example.com', purpose: 'signup' });
    const code = await captchaFor(t, 'new-signup@example.com');
    const r = await t.post('/api/v1/auth/signup', {
      email: 'new-signup@example.com',
      email_captcha: code,
      user_name: 'mail-owner@example.com',
      password1: TEST_PASSWORD,
      password2: TEST_PASSWORD,
    });
    expect(r.code).toBe(400);
    expect(r.message).toContain('邮箱');
  });

  it('concurrent claims of one identifier: exactly one wins', async () => {
    const users = await Promise.all(
      ['race_1', 'race_2', 'race_3', 'race_4'].map((n) => t.account(n, PERMISSION.user)),
    );
    const answers = await Promise.all(
      users.map((u) => t.post('/api/v1/user/update-info', { phone_num: '13900000099' }, { token: u.token })),
    );
    expect(answers.map((a) => a.code).sort()).toEqual([200, 409, 409, 409]);
    const rows = await t.ctx.db.query(`SELECT id FROM users WHERE phone_num = '13900000099'`);
    expect(rows).toHaveLength(1);

    // Two new accounts at once, one named what the other gives as its phone.
    const add = (user_name: string, phone_num: string) =>
      t.post(
        '/api/v1/user/add-user',
        { user_name, phone_num, password: 'add-user-pass-1', permissions: PERMISSION.user },
        { token: admin },
      );
    const both = await Promise.all([add('54321', ''), add('z54321', '54321')]);
    expect(both.map((a) => a.code).sort()).toEqual([200, 409]);
    const owners = await t.ctx.db.query(`SELECT user_id FROM login_identifiers WHERE identifier = '54321'`);
    expect(owners).toHaveLength(1);
  });
});

describe('point 8: a changed e-mail only counts once its owner confirmed it', () => {
  it('a manager cannot point a subordinate at its own mailbox and reset the password', async () => {
    const manager = await t.account('mail_mgr', MANAGER);
    const sub = await t.account('mail_sub', PERMISSION.user, manager.id);
    await giveEmail(t, sub.id, 'sub-old@example.com');
    await ageCaptchas();
    const set = await t.post<{ email: string; pending_email: string }>(
      '/api/v1/user/update-user',
      { id: sub.id, email: 'boss-private@example.com' },
      { token: manager.token },
    );
    expect(set.code).toBe(200);
    expect(set.data).toMatchObject({
      email: 'sub-old@example.com',
      pending_email: 'boss-private@example.com',
    });
    // The old address is told; the new one gets a code.
    expect((await mailsTo(t, 'sub-old@example.com')).at(-1)?.body).toContain('boss-private@example.com');
    const code = await captchaFor(t, 'boss-private@example.com');

    // The manager has the code, but find-password for that address reaches nobody.
    const reset = await findPassword('boss-private@example.com', 'taken-over-123');
    expect(reset.code).not.toBe(200);
    expect((await signInAs('mail_sub', 'taken-over-123')).code).toBe(400);
    // Nor can the manager confirm it for the subordinate.
    const byManager = await t.post('/api/v1/user/confirm-email', { code }, { token: manager.token });
    expect(byManager.code).not.toBe(200);

    // The owner, signed in, confirms with the code: now it applies.
    const wrong = await t.post(
      '/api/v1/user/confirm-email',
      { code: code === '000000' ? '111111' : '000000' },
      {
        token: sub.token,
      },
    );
    expect(wrong.code).toBe(400);
    const ok = await t.post<{ email: string; pending_email: string }>(
      '/api/v1/user/confirm-email',
      { code },
      { token: sub.token },
    );
    expect(ok).toMatchObject({ code: 200, data: { email: 'boss-private@example.com', pending_email: '' } });
    expect((await mailsTo(t, 'sub-old@example.com')).length).toBe(2);
    expect((await signInAs('boss-private@example.com')).data.user_id).toBe(sub.id);
  });

  it('the pending address is not an identifier until confirmed', async () => {
    const u = await t.account('pending_u', PERMISSION.user);
    await ageCaptchas();
    const r = await t.post(
      '/api/v1/user/update-user',
      { id: u.id, email: 'pending-u@example.com' },
      { token: u.token },
    );
    expect(r.code).toBe(200);
    expect((await signInAs('pending-u@example.com')).code).toBe(400);
    const info = await t.get<{ email: string; pending_email: string }>('/api/v1/user/get-info', undefined, {
      token: u.token,
    });
    expect(info.data).toMatchObject({ email: '', pending_email: 'pending-u@example.com' });
  });
});

describe('point 11: the server issues the open_token', () => {
  it('a client-chosen token is refused; the issued one signs in; a rebind replaces it', async () => {
    const u = await t.account('mini_u', PERMISSION.user);
    const chosen = await t.post(
      '/api/v1/mini-program/bind-open-token',
      { open_token: '1', app_id: 'wxmini' },
      { token: u.token },
    );
    expect(chosen.code).toBe(400);
    const one = await t.post('/api/v1/mini-program/login-with-open-token', {
      open_token: '1',
      app_id: 'wxmini',
    });
    expect(one.code).not.toBe(200);

    const first = await t.post<{ open_token: string }>(
      '/api/v1/mini-program/bind-open-token',
      { app_id: 'wxmini' },
      { token: u.token },
    );
    expect(first.code).toBe(200);
    expect(Buffer.from(first.data.open_token, 'base64url').length).toBeGreaterThanOrEqual(32);
    const login = await t.post<{ user_id: number }>('/api/v1/mini-program/login-with-open-token', {
      open_token: first.data.open_token,
      app_id: 'wxmini',
    });
    expect(login).toMatchObject({ code: 200, data: { user_id: u.id } });
    const stored = await t.ctx.db.query<{ wc_token: string }>(
      `SELECT wc_token FROM user_tokens WHERE user_id = $1`,
      [u.id],
    );
    expect(stored.map((s) => s.wc_token)).not.toContain(first.data.open_token);

    const second = await t.post<{ open_token: string }>(
      '/api/v1/mini-program/bind-open-token',
      { app_id: 'wxmini' },
      { token: u.token },
    );
    expect(second.data.open_token).not.toBe(first.data.open_token);
    const stale = await t.post('/api/v1/mini-program/login-with-open-token', {
      open_token: first.data.open_token,
      app_id: 'wxmini',
    });
    expect(stale.code).not.toBe(200);
    const fresh = await t.post('/api/v1/mini-program/login-with-open-token', {
      open_token: second.data.open_token,
      app_id: 'wxmini',
    });
    expect(fresh.code).toBe(200);
  });
});

describe('migration 0015 fills login_identifiers from colliding legacy users', () => {
  let m: TestApp;
  beforeAll(async () => {
    m = await testApp();
  });
  afterAll(() => m.close());

  it('keeps real names, then e-mails, then phones, then phone- or e-mail-shaped names, older first', async () => {
    const hash = (
      await m.ctx.db.query<{ h: string }>(`SELECT password_hash AS h FROM users WHERE id = 1`)
    )[0]!.h;
    const add = async (user_name: string, email: string | null, phone: string) => {
      const [r] = await m.ctx.db.query<{ id: number }>(
        `INSERT INTO users (user_name, email, phone_num, password_hash, path) VALUES ($1, $2, $3, $4, '/x/')
         RETURNING id`,
        [user_name, email, phone, hash],
      );
      return r!.id;
    };
    // Written as they could be before 0015: straight into users, colliding across columns.
    const alice = await add('alice', null, '13900001111');
    const attacker = await add('13900001111', null, '');
    const samePhone = await add('erin', null, '13900001111');
    const bobName = await add('Bob@Example.com', null, '');
    const bob = await add('bob', 'bob@example.com', '');
    const sql = await fs.readFile(
      path.join(import.meta.dirname, '../../db/migrations/0015_account_identifiers.sql'),
      'utf8',
    );
    const fills = sql
      .split(/;\s*(?:\n|$)/)
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .filter((s) => s.startsWith('INSERT INTO login_identifiers'));
    expect(fills).toHaveLength(4);
    await m.ctx.db.query(`DELETE FROM login_identifiers`);
    for (const s of fills) await m.ctx.db.query(s);

    const owner = async (identifier: string) =>
      (
        await m.ctx.db.query<{ user_id: number }>(
          `SELECT user_id FROM login_identifiers WHERE identifier = $1`,
          [identifier],
        )
      )[0]?.user_id;
    expect(await owner('13900001111')).toBe(alice);
    expect(await owner('bob@example.com')).toBe(bob);
    expect(await owner('alice')).toBe(alice);
    expect(await owner('erin')).toBe(samePhone);
    expect(await owner('admin')).toBe(1);
    const signIn = await m.post<{ user_id: number }>('/api/v1/auth/login', {
      filter: '13900001111',
      password: ADMIN_PASSWORD,
    });
    expect(signIn).toMatchObject({ code: 200, data: { user_id: alice } });
    expect([attacker, bobName]).not.toContain(signIn.data.user_id);
  });
});
