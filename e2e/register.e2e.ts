import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
let admin: string;
beforeAll(async () => {
  browser = await launch();
  admin = (
    await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    })
  ).data.auth_token;
});
afterAll(() => browser?.close());

/** The captcha as a developer reads it on /test when no SMTP server is configured. */
async function captchaFor(email: string) {
  const r = await api<{ list: { body: string }[] }>(
    'GET',
    `/api/v1/dev/outbox?to_addr=${encodeURIComponent(email)}`,
    undefined,
    admin,
  );
  return /验证码：(\d{6})/.exec(r.data.list[0]?.body ?? '')?.[1] ?? '';
}

describe('registration, password recovery and change', () => {
  it('signs up with an e-mailed captcha, then signs in', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/register');
    await page.getByLabel('邮箱', { exact: true }).fill('new.user@example.com');
    await page.getByRole('button', { name: '发送验证码' }).click();
    await page.getByRole('button', { name: /秒后重发/ }).waitFor();
    const code = await captchaFor('new.user@example.com');
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('邮箱验证码').fill(code);
    await page.getByLabel('用户名').fill('new_user');
    await page.getByLabel('密码', { exact: true }).fill('new-user-pass-1');
    await page.getByLabel('确认密码').fill('new-user-pass-1');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: /注\s*册/ }).click();
    await page.waitForURL(/\/login/);
    await signIn(page, 'new_user', 'new-user-pass-1');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await context.close();
  });

  it('sets a new password through 找回密码 and signs in with it', async () => {
    // Setup: an account with an e-mail address, made by the admin (no captcha mailed to it yet).
    await api(
      'POST',
      '/api/v1/user/add-user',
      { user_name: 'forgetful', password: 'old-pass-123', email: 'forgetful@example.com', permissions: '3' },
      admin,
    );
    const { page, context } = await newPage(browser);
    await page.goto('/find_password');
    await page.getByLabel('注册邮箱').fill('forgetful@example.com');
    await page.getByRole('button', { name: '发送验证码' }).click();
    await page.getByRole('button', { name: /秒后重发/ }).waitFor();
    await page.getByLabel('邮箱验证码').fill(await captchaFor('forgetful@example.com'));
    await page.getByLabel('新密码', { exact: true }).fill('new-pass-456');
    await page.getByLabel('确认新密码').fill('new-pass-456');
    await page.getByRole('button', { name: /重置密码/ }).click();
    await page.waitForURL(/\/login/);
    await signIn(page, 'forgetful', 'new-pass-456');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    const old = await api('POST', '/api/v1/auth/login', { filter: 'forgetful', password: 'old-pass-123' });
    expect(old.code).toBe(400);
    await context.close();
  });

  it('changes the password from the header menu, then signs in with the new one', async () => {
    await api(
      'POST',
      '/api/v1/user/add-user',
      { user_name: 'changer', password: 'old-pass-789', permissions: '3' },
      admin,
    );
    const { page, context } = await newPage(browser);
    await page.goto('/login');
    await signIn(page, 'changer', 'old-pass-789');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await page.getByRole('button', { name: /当前用户/ }).click();
    await page.getByText('修改密码', { exact: true }).click();
    await page.getByLabel('原密码').fill('old-pass-789');
    await page.getByLabel('新密码', { exact: true }).fill('changed-pass-012');
    await page.getByLabel('确认新密码').fill('changed-pass-012');
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await page.waitForURL(/\/login/);
    await page.getByText('密码已修改，请重新登录').waitFor();
    await signIn(page, 'changer', 'changed-pass-012');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    const old = await api('POST', '/api/v1/auth/login', { filter: 'changer', password: 'old-pass-789' });
    expect(old.code).toBe(400);
    await context.close();
  });
});
