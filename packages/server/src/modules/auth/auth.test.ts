import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE, PERMISSION } from '@se/core';
import { ADMIN_PASSWORD, captchaFor, testApp, type TestApp } from '../../test/harness.ts';
import { ensureAdmin } from './service.ts';
import { LOGIN_LIMIT } from './routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

async function signup(email: string, user_name: string, password = 'password-123') {
  const sent = await t.post('/api/v1/auth/send-email-captcha', { email, purpose: 'signup' });
  expect(sent.code).toBe(200);
  const code = await captchaFor(t, email);
  return t.post<{ user_id: number }>('/api/v1/auth/signup', {
    email,
    email_captcha: code,
    user_name,
    password1: password,
    password2: password,
  });
}

describe('first start', () => {
  it('creates admin with permission develop', async () => {
    const r = await t.post<{ permission: number; user_name: string }>('/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    });
    expect(r.code).toBe(200);
    expect(r.data.user_name).toBe('admin');
    expect(r.data.permission).toBe(PERMISSION.develop);
  });
});

describe('login', () => {
  it('answers auth_token, user_name, permission and user_id, and the token works', async () => {
    const r = await t.post<{ auth_token: string; user_id: number }>('/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
      remeber: 'true',
    });
    expect(Object.keys(r.data).sort()).toEqual(['auth_token', 'permission', 'user_id', 'user_name']);
    expect(r.data.auth_token.length).toBeGreaterThanOrEqual(22);
    const p = await t.get<{ permission: number; id: number }>('/api/v1/auth/get-permission', undefined, {
      token: r.data.auth_token,
    });
    expect(p).toMatchObject({ code: 200, data: { permission: PERMISSION.develop, id: r.data.user_id } });
  });

  it('issues a new token each login and stores only its hash', async () => {
    const a = await t.login('admin', ADMIN_PASSWORD);
    const b = await t.login('admin', ADMIN_PASSWORD);
    expect(a).not.toBe(b);
    const rows = await t.ctx.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(rows.map((r) => r.token_hash)).not.toContain(a);
  });

  it('accepts JSON bodies as well as forms', async () => {
    const r = await t.post(
      '/api/v1/auth/login',
      { filter: 'admin', password: ADMIN_PASSWORD },
      { json: true },
    );
    expect(r.code).toBe(200);
  });

  it('remeber gives a 30-day session, otherwise 24 hours', async () => {
    const long = await t.post<{ auth_token: string }>('/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
      remeber: true,
    });
    const short = await t.post<{ auth_token: string }>('/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    });
    const rows = await t.ctx.db.query<{ hours: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 3600)::int AS hours FROM sessions ORDER BY id DESC LIMIT 2`,
    );
    expect(rows.map((r) => r.hours)).toEqual([24, 720]);
    expect(long.code + short.code).toBe(400);
  });

  it('accepts the user name, the email or the phone as filter', async () => {
    const s = await signup('filter@example.com', 'filter_user');
    expect(s.code).toBe(200);
    const session = await t.login('filter_user', 'password-123');
    const phone = await t.post('/api/v1/user/update-info', { phone_num: '13800000001' }, { token: session });
    expect(phone.code).toBe(200);
    for (const filter of ['filter_user', 'FILTER_USER', 'filter@example.com', '13800000001']) {
      const r = await t.post<{ user_id: number }>('/api/v1/auth/login', { filter, password: 'password-123' });
      expect(r.code, filter).toBe(200);
      expect(r.data.user_id).toBe(s.data.user_id);
    }
  });

  it('does not tell which part was wrong', async () => {
    const wrongPass = await t.post('/api/v1/auth/login', { filter: 'admin', password: 'nope-nope-nope' });
    const noUser = await t.post('/api/v1/auth/login', { filter: 'nobody-here', password: 'nope-nope-nope' });
    expect(wrongPass.code).toBe(CODE.badRequest);
    expect(wrongPass.message).toBe(noUser.message);
    expect(noUser.message).toBe('账号或密码错误');
  });

  it('locks the account from one address for 15 minutes after 5 failures, even for the right password', async () => {
    const s = await signup('lock@example.com', 'lock_user');
    expect(s.code).toBe(200);
    const ip = '127.7.7.7';
    for (let i = 0; i < 4; i++) {
      const r = await t.post(
        '/api/v1/auth/login',
        { filter: 'lock_user', password: 'wrong-password' },
        { ip },
      );
      expect(r.code).toBe(CODE.badRequest);
    }
    const fifth = await t.post(
      '/api/v1/auth/login',
      { filter: 'lock_user', password: 'wrong-password' },
      { ip },
    );
    expect(fifth.code).toBe(CODE.rateLimited);
    expect(fifth.message).toContain('锁定');
    const right = await t.post(
      '/api/v1/auth/login',
      { filter: 'lock_user', password: 'password-123' },
      { ip },
    );
    expect(right.code).toBe(CODE.rateLimited);
    expect(right.message).toMatch(/请\d+分钟后再试/);
    // Once the lock has run out, the right password works again.
    await t.ctx.db.query(
      `UPDATE login_failures SET since = since - interval '16 minutes', locked_until = now() - interval '1 second'`,
    );
    const later = await t.post(
      '/api/v1/auth/login',
      { filter: 'lock_user', password: 'password-123' },
      { ip },
    );
    expect(later.code).toBe(200);
  });

  it('limits login attempts per IP', async () => {
    const ip = '127.9.8.7';
    let last = 0;
    for (let i = 0; i <= LOGIN_LIMIT.max; i++) {
      last = (await t.post('/api/v1/auth/login', { filter: `ghost${i}`, password: 'x' }, { ip })).code;
    }
    expect(last).toBe(CODE.rateLimited);
    const other = await t.post(
      '/api/v1/auth/login',
      { filter: 'admin', password: ADMIN_PASSWORD },
      { ip: '127.9.8.8' },
    );
    expect(other.code).toBe(200);
  });
});

describe('bad input', () => {
  it('names the missing field in Chinese', async () => {
    const r = await t.post<{ fields: { field: string }[] }>('/api/v1/auth/login', { password: 'x' });
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toBe('账号不能为空');
    expect(r.data.fields[0]!.field).toBe('filter');
  });

  it('rejects wrong types', async () => {
    const r = await t.post('/api/v1/auth/login', { filter: ['a', 'b'], password: 12 }, { json: true });
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toMatch(/账号|密码/);
  });

  it('answers malformed JSON and unknown content types with 400', async () => {
    const bad = await t.post('/api/v1/auth/login', '{"filter":', {
      headers: { 'content-type': 'application/json' },
    });
    expect(bad).toMatchObject({ code: CODE.badRequest, message: '请求内容不是有效的 JSON' });
    const xml = await t.post('/api/v1/auth/login', '<a/>', {
      headers: { 'content-type': 'application/xml' },
    });
    expect(xml.code).toBe(CODE.badRequest);
    expect(xml.res.statusCode).toBe(200);
  });

  it('refuses huge bodies with 413 and no stack', async () => {
    const r = await t.post('/api/v1/auth/login', { filter: 'a'.repeat(2_000_000), password: 'x' });
    expect(r.code).toBe(CODE.tooLarge);
    expect(r.res.body).not.toMatch(/at .*\.ts/);
  });

  it('treats SQL-ish strings as plain text', async () => {
    const r = await t.post('/api/v1/auth/login', { filter: "admin' OR '1'='1", password: "' OR 1=1 --" });
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toBe('账号或密码错误');
    const n = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM users WHERE user_name = 'admin'`,
    );
    expect(n[0]!.n).toBe(1);
  });

  it('answers unknown API paths with body code 404', async () => {
    const r = await t.get('/api/v1/nothing/here');
    expect(r).toMatchObject({ code: CODE.notFound, message: '接口不存在' });
  });
});

describe('session tokens', () => {
  it('reads the token from Authorization or X-Token, quotes stripped', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    for (const headers of <Record<string, string>[]>[
      { authorization: `"${token}"` },
      { authorization: token },
      { authorization: `Bearer ${token}` },
      { 'x-token': `"${token}"` },
    ]) {
      const r = await t.get('/api/v1/auth/get-permission', undefined, { headers });
      expect(r.code, JSON.stringify(headers)).toBe(200);
    }
  });

  it('answers 401 without a token and for an unknown one', async () => {
    expect((await t.get('/api/v1/auth/get-permission')).code).toBe(CODE.unauthorized);
    expect((await t.get('/api/v1/auth/get-permission', undefined, { token: 'forged' })).code).toBe(
      CODE.unauthorized,
    );
  });

  it('answers 4001 for an expired session', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    await t.ctx.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second'`);
    t.ctx.sessions.forgetUser(1);
    const r = await t.get('/api/v1/auth/get-permission', undefined, { token });
    expect(r.code).toBe(CODE.expired);
  });

  it('logout revokes the token: 4002 afterwards', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    expect((await t.post('/api/v1/auth/logout', undefined, { token })).code).toBe(200);
    const r = await t.get('/api/v1/auth/get-permission', undefined, { token });
    expect(r.code).toBe(CODE.revoked);
  });
});

describe('signup', () => {
  it('creates an account that can sign in', async () => {
    const s = await signup('new@example.com', 'newbie');
    expect(s.code).toBe(200);
    const token = await t.login('new@example.com', 'password-123');
    const p = await t.get<{ id: number }>('/api/v1/auth/get-permission', undefined, { token });
    expect(p.data.id).toBe(s.data.user_id);
  });

  it('grants what SPEC §3 gives a new user: permissions 1 (visitor)', async () => {
    const s = await signup('visitor@example.com', 'visitor_user');
    const token = await t.login('visitor_user', 'password-123');
    const p = await t.get<{ permission: number; id: number }>('/api/v1/auth/get-permission', undefined, {
      token,
    });
    expect(p.data).toMatchObject({ permission: PERMISSION.visitor, id: s.data.user_id });
  });

  it('answers a taken user name only after a valid captcha, and keeps the captcha for a new name', async () => {
    await signup('dup@example.com', 'dup_user');
    const email = 'other-dup@example.com';
    await t.post('/api/v1/auth/send-email-captcha', { email, purpose: 'signup' });
    const code = await captchaFor(t, email);
    const body = { email, user_name: 'DUP_USER', password1: 'password-123', password2: 'password-123' };
    const wrong = await t.post('/api/v1/auth/signup', {
      ...body,
      email_captcha: code === '000000' ? '111111' : '000000',
    });
    expect(wrong).toMatchObject({ code: CODE.badRequest, message: '验证码错误，还可尝试4次' });
    const noCaptcha = await t.post('/api/v1/auth/signup', {
      ...body,
      user_name: 'dup_user',
      email_captcha: '000001',
    });
    expect(noCaptcha.message).not.toContain('用户名');
    const taken = await t.post('/api/v1/auth/signup', { ...body, email_captcha: code });
    expect(taken).toMatchObject({ code: CODE.conflict, message: '用户名已被使用' });
    const other = await t.post('/api/v1/auth/signup', {
      ...body,
      user_name: 'dup_user_2',
      email_captcha: code,
    });
    expect(other.code).toBe(200);
  });

  it('the sign-up captcha answers the same for a registered e-mail and mails it how to get back in', async () => {
    await signup('known@example.com', 'known_user');
    await t.ctx.db.query(`UPDATE email_captchas SET created_at = now() - interval '2 minutes'`);
    const known = await t.post('/api/v1/auth/send-email-captcha', {
      email: 'known@example.com',
      purpose: 'signup',
    });
    const fresh = await t.post('/api/v1/auth/send-email-captcha', {
      email: 'fresh@example.com',
      purpose: 'signup',
    });
    expect({ ...known, res: null }).toEqual({ ...fresh, res: null });
    expect(known.code).toBe(200);
    const mail = await t.ctx.db.query<{ body: string }>(
      `SELECT body FROM outbox WHERE to_addr = 'known@example.com' ORDER BY id DESC LIMIT 1`,
    );
    expect(mail[0]!.body).toContain('已注册');
    expect(mail[0]!.body).toContain('忘记密码');
    await expect(captchaFor(t, 'known@example.com')).rejects.toThrow();
    // The resend limit holds for both alike.
    const again = await t.post('/api/v1/auth/send-email-captcha', {
      email: 'known@example.com',
      purpose: 'signup',
    });
    expect(again.code).toBe(CODE.rateLimited);
  });

  it('checks password length and that both passwords match', async () => {
    const email = 'pw@example.com';
    await t.post('/api/v1/auth/send-email-captcha', { email, purpose: 'signup' });
    const code = await captchaFor(t, email);
    const short = await t.post('/api/v1/auth/signup', {
      email,
      email_captcha: code,
      user_name: 'pw_user',
      password1: 'short',
      password2: 'short',
    });
    expect(short.message).toBe('密码长度不能少于8个字符');
    const mismatch = await t.post('/api/v1/auth/signup', {
      email,
      email_captcha: code,
      user_name: 'pw_user',
      password1: 'password-123',
      password2: 'password-124',
    });
    expect(mismatch.message).toBe('两次输入的密码不一致');
  });
});

describe('password policy', () => {
  const attempt = async (email: string, user_name: string, password: string) => {
    await t.post('/api/v1/auth/send-email-captcha', { email, purpose: 'signup' });
    const code = await captchaFor(t, email);
    return t.post('/api/v1/auth/signup', {
      email,
      email_captcha: code,
      user_name,
      password1: password,
      password2: password,
    });
  };

  it('refuses the commonest passwords at sign-up, whatever their case', async () => {
    for (const [i, pw] of ['11111111', '12345678', 'Password123', 'QWERTYUIOP', 'woaini1314'].entries()) {
      const r = await attempt(`common${i}@example.com`, `common_${i}`, pw);
      expect(r.code, pw).toBe(CODE.badRequest);
      expect(r.message, pw).toMatch(/密码过于(常见|简单)/);
    }
  });

  it('refuses trivial patterns: one character, sequences, repeated units', async () => {
    for (const [i, pw] of ['zzzzzzzzzz', 'abcdefghij', '98765432', 'xyzxyzxyz'].entries()) {
      const r = await attempt(`trivial${i}@example.com`, `trivial_${i}`, pw);
      expect(r.message, pw).toMatch(/密码过于(常见|简单)/);
    }
  });

  it('refuses the user name or the e-mail as password, case-insensitively', async () => {
    const byName = await attempt('same1@example.com', 'Zhang_San_88', 'zhang_san_88');
    expect(byName).toMatchObject({ code: CODE.badRequest, message: '密码不能与用户名、邮箱或手机号相同' });
    const byMail = await attempt('li.si.2024@example.com', 'li_si_x', 'LI.SI.2024');
    expect(byMail.message).toBe('密码不能与用户名、邮箱或手机号相同');
    expect((await attempt('ok-pw@example.com', 'ok_pw', 'tea-kettle-river-9')).code).toBe(200);
  });

  it('applies to find-password, against the account user name and phone too', async () => {
    const s = await signup('reset-pw@example.com', 'reset_pw_user');
    await t.ctx.db.query(`UPDATE users SET phone_num = '13912345678' WHERE id = $1`, [s.data.user_id]);
    await t.ctx.db.query(`UPDATE email_captchas SET created_at = now() - interval '2 minutes'`);
    for (const pw of ['iloveyou123', '13912345678', 'RESET_PW_USER']) {
      await t.ctx.db.query(`UPDATE email_captchas SET created_at = now() - interval '2 minutes'`);
      await t.post('/api/v1/auth/send-email-captcha', {
        email: 'reset-pw@example.com',
        purpose: 'find-password',
      });
      const code = await captchaFor(t, 'reset-pw@example.com');
      const r = await t.post('/api/v1/auth/find-password', {
        email: 'reset-pw@example.com',
        email_captcha: code,
        password1: pw,
        password2: pw,
      });
      expect(r.code, pw).toBe(CODE.badRequest);
      expect(r.message, pw).toMatch(/密码过于常见|密码不能与用户名、邮箱或手机号相同/);
    }
    await t.login('reset_pw_user', 'password-123');
  });

  it('ADMIN_PASSWORD at first start: a weak one stops the server with a clear error', async () => {
    // First start is when no admin exists yet: move the current one out of the way.
    await t.ctx.db.query(`UPDATE users SET user_name = 'admin_moved' WHERE id = 1`);
    try {
      const weak = { ...t.ctx, config: { ...t.ctx.config, adminPassword: 'admin123' } };
      await expect(ensureAdmin(weak)).rejects.toThrow(/ADMIN_PASSWORD.*password policy/);
      const count = await t.ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM users WHERE user_name = 'admin'`,
      );
      expect(count[0]!.n).toBe(0);
    } finally {
      await t.ctx.db.query(`UPDATE users SET user_name = 'admin' WHERE id = 1`);
    }
  });
});

describe('send-email-captcha', () => {
  it('mails 6 digits and allows one send per 60 s per address', async () => {
    const email = 'cap@example.com';
    expect((await t.post('/api/v1/auth/send-email-captcha', { email, purpose: 'signup' })).code).toBe(200);
    expect(await captchaFor(t, email)).toMatch(/^\d{6}$/);
    const again = await t.post('/api/v1/auth/send-email-captcha', { email, purpose: 'signup' });
    expect(again.code).toBe(CODE.rateLimited);
    expect(again.message).toMatch(/\d+秒后再试/);
  });

  it('allows 5 tries, then the code is dead even when right', async () => {
    const email = 'tries@example.com';
    await t.post('/api/v1/auth/send-email-captcha', { email, purpose: 'signup' });
    const code = await captchaFor(t, email);
    const wrong = code === '000000' ? '111111' : '000000';
    const body = { email, user_name: 'tries_user', password1: 'password-123', password2: 'password-123' };
    for (let i = 0; i < 5; i++) {
      const r = await t.post('/api/v1/auth/signup', { ...body, email_captcha: wrong });
      expect(r.code).toBe(CODE.badRequest);
    }
    const r = await t.post('/api/v1/auth/signup', { ...body, email_captcha: code });
    expect(r).toMatchObject({ code: CODE.badRequest, message: '验证码已失效，请重新获取' });
  });

  it('expires after 10 minutes', async () => {
    const email = 'old@example.com';
    await t.post('/api/v1/auth/send-email-captcha', { email, purpose: 'signup' });
    const code = await captchaFor(t, email);
    await t.ctx.db.query(
      `UPDATE email_captchas SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [email],
    );
    const r = await t.post('/api/v1/auth/signup', {
      email,
      email_captcha: code,
      user_name: 'old_user',
      password1: 'password-123',
      password2: 'password-123',
    });
    expect(r.message).toBe('验证码已失效，请重新获取');
  });

  it('rejects a malformed address', async () => {
    const r = await t.post('/api/v1/auth/send-email-captcha', { email: 'not-an-email', purpose: 'signup' });
    expect(r).toMatchObject({ code: CODE.badRequest, message: '邮箱格式不正确' });
  });
});

describe('find-password', () => {
  it('sets a new password and revokes the old sessions (4002)', async () => {
    await signup('forgot@example.com', 'forgot_user');
    const old = await t.login('forgot_user', 'password-123');
    await t.ctx.db.query(`UPDATE email_captchas SET created_at = now() - interval '2 minutes'`);
    const sent = await t.post('/api/v1/auth/send-email-captcha', {
      email: 'forgot@example.com',
      purpose: 'find-password',
    });
    expect(sent.code).toBe(200);
    const code = await captchaFor(t, 'forgot@example.com');
    const r = await t.post('/api/v1/auth/find-password', {
      email: 'forgot@example.com',
      email_captcha: code,
      password1: 'new-password-1',
      password2: 'new-password-1',
    });
    expect(r.code).toBe(200);
    expect((await t.get('/api/v1/auth/get-permission', undefined, { token: old })).code).toBe(CODE.revoked);
    expect(
      (await t.post('/api/v1/auth/login', { filter: 'forgot_user', password: 'password-123' })).code,
    ).toBe(400);
    await t.login('forgot_user', 'new-password-1');
  });

  it('answers the same for an unknown address but mails nothing', async () => {
    const r = await t.post('/api/v1/auth/send-email-captcha', {
      email: 'ghost@example.com',
      purpose: 'find-password',
    });
    expect(r.code).toBe(200);
    await expect(captchaFor(t, 'ghost@example.com')).rejects.toThrow();
  });
});

describe('login-with-token and login-with-open-token', () => {
  it('exchanges an od_token for a session; a reset token replaces the old one', async () => {
    const session = await t.login('admin', ADMIN_PASSWORD);
    const status = () =>
      t.get<{ exists: boolean; created_at: string | null }>('/api/v1/user/od-token', {}, { token: session });
    expect((await status()).data).toEqual({ exists: false, created_at: null });
    const first = await t.post<{ od_token: string }>('/api/v1/user/reset-od-token', undefined, {
      token: session,
    });
    const made = (await status()).data;
    expect(made.exists).toBe(true);
    expect(made.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(JSON.stringify(made)).not.toContain(first.data.od_token);
    const r = await t.post<{ user_name: string }>('/api/v1/auth/login-with-token', {
      token: first.data.od_token,
    });
    expect(r).toMatchObject({ code: 200, data: { user_name: 'admin' } });
    await t.post('/api/v1/user/reset-od-token', undefined, { token: session });
    const stale = await t.post('/api/v1/auth/login-with-token', { token: first.data.od_token });
    expect(stale.code).toBe(CODE.unauthorized);
  });

  it('signs in a bound mini-program identity and refuses an unbound one', async () => {
    const unbound = { open_token: 'o-123-abc', app_id: 'wx0001' };
    const before = await t.post('/api/v1/mini-program/login-with-open-token', unbound);
    expect(before).toMatchObject({ code: CODE.notFound, message: '该小程序账号尚未绑定，请先登录' });
    const session = await t.login('admin', ADMIN_PASSWORD);
    const bound = await t.post<{ open_token: string }>(
      '/api/v1/mini-program/bind-open-token',
      { app_id: 'wx0001' },
      { token: session },
    );
    expect(bound.code).toBe(200);
    const body = { open_token: bound.data.open_token, app_id: 'wx0001' };
    const after = await t.post<{ user_name: string }>('/api/v1/mini-program/login-with-open-token', body);
    expect(after).toMatchObject({ code: 200, data: { user_name: 'admin' } });
    const otherApp = await t.post('/api/v1/mini-program/login-with-open-token', {
      ...body,
      app_id: 'wx0002',
    });
    expect(otherApp.code).toBe(CODE.notFound);
  });
});
