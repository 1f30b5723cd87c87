import fs from 'node:fs';
import nodePath from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD, BASE, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const path = (url: string) => url.slice(BASE.length);

describe('sign-in and the console shell', () => {
  it('sends a signed-out visitor of /users to /login?redirect=/users, and back after signing in', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/users');
    await page.waitForURL(/\/login/);
    expect(path(page.url())).toBe('/login?redirect=%2Fusers');
    await expect(page.title()).resolves.toContain('登录');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/users$/);
    await page.getByText('admin', { exact: true }).first().waitFor();
    await expect(page.title()).resolves.toContain('用户管理');
    await context.close();
  });

  it('shows a wrong password as a warning and stays on the login page', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await signIn(page, 'admin', 'wrong-password');
    await page.getByText('账号或密码错误').waitFor();
    expect(path(page.url())).toBe('/login');
    await context.close();
  });

  it('edits the profile and sees it after a reload', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    const openProfile = async () => {
      await page.getByRole('button', { name: /当前用户/ }).click();
      await page.getByText('修改信息', { exact: true }).click();
      await page.getByRole('dialog').waitFor();
    };
    await openProfile();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('用户名').isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('联系电话').fill('13912345678');
    await dialog.getByLabel('公司名称').fill('测试保洁服务有限公司');
    await dialog.getByLabel('公司地址').fill('浙江省杭州市滨江区 1 号');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('消息').first().waitFor();
    await page.reload();
    await openProfile();
    await expect(page.getByRole('dialog').getByLabel('公司名称').inputValue()).resolves.toBe(
      '测试保洁服务有限公司',
    );
    await expect(page.getByRole('dialog').getByLabel('联系电话').inputValue()).resolves.toBe('13912345678');
    await context.close();
  });

  it('signs out to the login page, and the old token no longer works', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    await page.getByRole('button', { name: /当前用户/ }).click();
    await page.getByText('退出登录', { exact: true }).click();
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const r = await api('GET', '/api/v1/auth/get-permission', undefined, token!.replace(/"/g, ''));
    expect(r.code).toBe(4002);
    await context.close();
  });

  it('goes to the login page when the token is revoked elsewhere', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await page.goto('/users');
    await page.waitForURL(/\/users$/);
    const token = (await page.evaluate(() => localStorage.getItem('token')))!.replace(/"/g, '');
    expect((await api('POST', '/api/v1/auth/logout', {}, token)).code).toBe(200);
    await page.goto('/equipments');
    await page.waitForURL(/\/login\?redirect=%2Fequipments/);
    await context.close();
  });

  it('sends unknown paths to /st-gateway', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await page.goto('/no-such-page');
    await page.waitForURL(/\/st-gateway$/);
    await context.close();
  });

  it("takes antd's component styles from the build: none is built in the browser for a console list", async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await page.goto('/users');
    await page.locator('.ant-table-row').first().waitFor();
    await page.locator('.ant-pagination').waitFor();
    const head = await page.evaluate(() => ({
      // antd's run-time <style> elements: theme variables, and the styles of any component the
      // build left out (antd-styles.ts).
      built: [...document.querySelectorAll('style[data-css-hash]')]
        .map((s) => s.textContent ?? '')
        .filter((css) => !/^\s*\.css-var-/.test(css) && !/^\s*\.anticon/.test(css))
        .map((css) => /\.ant-[a-z-]+/.exec(css)?.[0]),
      order: [...document.head.querySelectorAll('style#antd-static-styles, link[rel=stylesheet]')].map((e) =>
        e.id ? 'antd' : new URL((e as HTMLLinkElement).href).pathname,
      ),
    }));
    // The shell, the table, its pager and row actions: styles that came with the page.
    for (const part of [
      '.ant-btn',
      '.ant-table',
      '.ant-pagination',
      '.ant-menu',
      '.ant-layout',
      '.ant-input',
    ]) {
      expect(head.built.filter((b) => b === part || b?.startsWith(`${part}-`))).toEqual([]);
    }
    // Before the app's stylesheets, as antd's run-time styles are: base.css still wins a tie.
    expect(head.order[0]).toBe('antd');
    expect(head.order.length).toBeGreaterThan(1);
    await context.close();
  });

  it('loads less than 130 KiB of gzipped JavaScript for the login page, without antd or the router', async () => {
    const { context, page } = await newPage(browser);
    const scripts = new Set<string>();
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
    });
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByPlaceholder('密码').waitFor();
    // The served files are the build's precompressed .gz beside each asset (small ones stay plain).
    const dist = nodePath.resolve(import.meta.dirname, '../packages/web/dist');
    let bytes = 0;
    for (const s of scripts) {
      const file = nodePath.join(dist, s);
      bytes += fs.statSync(fs.existsSync(`${file}.gz`) ? `${file}.gz` : file).size;
    }
    expect(scripts.size).toBeGreaterThan(3);
    // The light sign-in page (light-app.tsx): the console's code waits until the form is used.
    expect([...scripts].filter((s) => /\/(antd|router|console-app)-/.test(s))).toEqual([]);
    expect(bytes / 1024).toBeLessThan(130);
    await context.close();
  });
});
