import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  browser = await launch();
  const login = await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
    filter: 'admin',
    password: ADMIN_PASSWORD,
  });
  adminToken = login.data.auth_token;
  // Setup, not under test: a customer account and a second dispenser it must never see.
  await api(
    'POST',
    '/api/v1/user/add-user',
    { user_name: 'e2e_jwb_customer', password: 'customer-pass-2', permissions: '3' },
    adminToken,
  );
  await api('POST', '/api/v1/jwb/add-jwb', { ser_num: 'E2E-JWB-OTHER', desc: '别人的除臭机' }, adminToken);
});
afterAll(() => browser?.close());

async function signedIn(user: string, password: string, path: string): Promise<Page> {
  const { page } = await newPage(browser);
  await page.goto(`/login?redirect=${encodeURIComponent(path)}`);
  await signIn(page, user, password);
  await page.waitForURL((u) => u.pathname === path);
  return page;
}

const row = (page: Page, text: string) =>
  page.getByRole('row').filter({ has: page.getByText(text, { exact: true }) });

describe('dispenser registry', () => {
  it('registers a dispenser, applies the 学校 preset, binds it to a customer who then sees only it', async () => {
    const admin = await signedIn('admin', ADMIN_PASSWORD, '/equipments');
    await admin.getByRole('button', { name: '登记设备' }).click();
    const form = admin.getByRole('dialog', { name: '登记除臭机' });
    await form.getByLabel('序列号').fill('E2E-JWB-1');
    await form.getByLabel('描述').fill('西湖公厕男卫');
    await form.getByRole('button', { name: '保存' }).click();
    await form.waitFor({ state: 'hidden' });
    await row(admin, 'E2E-JWB-1').waitFor();

    await row(admin, 'E2E-JWB-1').getByRole('button', { name: '详情' }).click();
    const drawer = admin.locator('.ant-drawer');
    await drawer.getByRole('tab', { name: '配置' }).click();
    await drawer.getByLabel('时间方案').click();
    await admin.locator('.ant-select-item-option[title="学校"]').click();
    await expect(drawer.getByLabel('周六开始时间').inputValue()).resolves.toBe('00:01');
    await drawer.getByRole('button', { name: '保存并下发' }).click();
    await admin.getByText('配置已保存，等待设备接收').waitFor();

    const list = await api<{ list: { id: number; ser_num: string }[] }>(
      'GET',
      '/api/v1/jwb/jwbs?keywords=E2E-JWB-1',
      undefined,
      adminToken,
    );
    const id = list.data.list[0]!.id;
    const cfg = await api<Record<string, string>>(
      'GET',
      `/api/v1/jwb/get-config?id=${id}`,
      undefined,
      adminToken,
    );
    expect(cfg.data).toMatchObject({
      config_name: '学校',
      mon_start: '07:00',
      fri_end: '19:00',
      sat_start: '00:01',
      sun_end: '00:00',
    });
    await admin.keyboard.press('Escape');

    await admin.goto('/users');
    await row(admin, 'e2e_jwb_customer').getByRole('button', { name: '绑定设备' }).click();
    const dialog = admin.getByRole('dialog', { name: /绑定设备/ });
    const tab = dialog.getByRole('tab', { name: '除臭机' });
    await tab.click();
    await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
    await dialog
      .getByRole('row')
      .filter({ has: admin.getByText('E2E-JWB-1', { exact: true }) })
      .getByRole('checkbox')
      .check();
    await dialog.getByRole('button', { name: '保存' }).click();
    await admin.getByText('绑定已保存').waitFor();
    await admin.context().close();

    const customer = await signedIn('e2e_jwb_customer', 'customer-pass-2', '/equipments');
    await row(customer, 'E2E-JWB-1').waitFor();
    await expect(customer.locator('.ant-table-tbody tr.ant-table-row').count()).resolves.toBe(1);
    await expect(customer.getByText('E2E-JWB-OTHER').count()).resolves.toBe(0);
    await customer.context().close();
  });
});
