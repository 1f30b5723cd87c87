import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

async function signedIn(user: string, password: string): Promise<Page> {
  const { page } = await newPage(browser);
  await page.goto('/login?redirect=%2Fusers');
  await signIn(page, user, password);
  await page.waitForURL(/\/users$/);
  return page;
}

/** Fills the 新增用户 dialog and saves it. */
async function addUser(page: Page, name: string, password: string, roles: string[]) {
  await page.getByRole('button', { name: '新增用户' }).click();
  const dialog = page.getByRole('dialog', { name: '新增用户' });
  await dialog.getByLabel('用户名').fill(name);
  await dialog.getByLabel('密码').fill(password);
  for (const role of roles)
    await dialog.getByRole('group', { name: '角色' }).getByText(role, { exact: true }).click();
  await dialog.getByRole('button', { name: '保存' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

const row = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

describe('user administration', () => {
  it('an admin creates a dealer; the dealer creates a customer and cannot grant OEM', async () => {
    const admin = await signedIn('admin', ADMIN_PASSWORD);
    await addUser(admin, 'e2e_dealer', 'dealer-pass-1', ['经销商']);
    // Ticking 经销商 also ticked the lower roles a dealer needs.
    await expect(row(admin, 'e2e_dealer').getByText('经销商').count()).resolves.toBeGreaterThan(0);
    await expect(row(admin, 'e2e_dealer').getByText('用户', { exact: true }).count()).resolves.toBe(1);
    await admin.context().close();

    const dealer = await signedIn('e2e_dealer', 'dealer-pass-1');
    await dealer.getByRole('button', { name: '新增用户' }).click();
    const dialog = dealer.getByRole('dialog', { name: '新增用户' });
    const roles = dialog.getByRole('group', { name: '角色' });
    await expect(roles.getByRole('checkbox', { name: 'OEM' }).isDisabled()).resolves.toBe(true);
    await expect(roles.getByRole('checkbox', { name: '用户', exact: true }).isEnabled()).resolves.toBe(true);
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await addUser(dealer, 'e2e_customer', 'customer-pass-1', ['用户']);
    await row(dealer, 'e2e_customer').waitFor();
    // The dealer sees itself and its customer, nobody else.
    await expect(dealer.locator('.ant-table-tbody tr.ant-table-row').count()).resolves.toBe(2);
    await dealer.context().close();
  });

  it('the admin edits a user company info and sees it in the table', async () => {
    const admin = await signedIn('admin', ADMIN_PASSWORD);
    await row(admin, 'e2e_customer').getByRole('button', { name: '公司信息' }).click();
    const dialog = admin.getByRole('dialog', { name: /公司信息/ });
    await dialog.getByLabel('公司名称').fill('西湖环卫服务有限公司');
    await dialog.getByLabel('公司地址').fill('杭州市西湖区');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row(admin, 'e2e_customer').getByText('西湖环卫服务有限公司').waitFor();
    await admin.reload();
    await row(admin, 'e2e_customer').getByText('西湖环卫服务有限公司').waitFor();
    await admin.context().close();
  });
});
