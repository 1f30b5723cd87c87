import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD, BASE, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
// Names of this run's own, so a rerun against the same server finds this run's rows.
const RUN = Date.now() % 100_000;
const USER = `e2e_att_${RUN}`;
const PASSWORD = 'e2e-attend-123';
const DEPT = `E2E保洁部${RUN}`;
const NUMBER = `E2E${RUN}`;
const CARD = `CARD${RUN}`;

beforeAll(async () => {
  browser = await launch();
  const admin = (
    await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    })
  ).data.auth_token;
  // Setup: an attendance account (role 32), as a back-office manager would create it.
  const added = await api(
    'POST',
    '/api/v1/user/add-user',
    { user_name: USER, password: PASSWORD, permissions: '32' },
    admin,
  );
  expect(added.code).toBe(200);
});
afterAll(() => browser?.close());

describe('attendance in the browser', () => {
  it('builds a department, adds an employee, and shows the punch a terminal reports', async () => {
    const { page } = await newPage(browser);
    await page.goto('/login?redirect=%2Fci-organization');
    await signIn(page, USER, PASSWORD);
    await page.waitForURL(/\/ci-organization$/);

    // First use founds the account's organisation: its root department is the tree's top.
    const tree = page.getByRole('tree', { name: '组织架构' });
    await tree.getByText(`${USER}的组织`).waitFor();
    await page.getByRole('button', { name: '新增下级部门' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('部门名称').fill(DEPT);
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('部门已添加').waitFor();
    await tree.getByText(DEPT).waitFor();

    // 员工管理: a new employee in that department, with the card the terminal reads.
    await page.getByRole('tab', { name: '员工管理' }).click();
    await page.getByRole('button', { name: '新增员工' }).click();
    const form = page.getByRole('dialog');
    await form.getByLabel('工号').fill(NUMBER);
    await form.getByLabel('姓名').fill('周保洁');
    await form.getByLabel('部门').click();
    await page.locator('.ant-select-tree').getByText(DEPT).click();
    await form.getByLabel('卡号').fill(CARD);
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('员工已添加').waitFor();
    const row = page.locator('.ant-table-row', { hasText: NUMBER });
    await row.getByText('周保洁').waitFor();
    await row.getByText(DEPT).waitFor();

    // Back on the tree the department counts one person.
    await page.getByRole('tab', { name: '组织架构' }).click();
    await tree.locator('.ant-tree-treenode', { hasText: DEPT }).getByText('1 人').waitFor();

    // A clock-in terminal registered by the account reports a card punch (docs/protocol.md).
    const login = (
      await api<{ auth_token: string }>('POST', '/api/v1/auth/login', { filter: USER, password: PASSWORD })
    ).data.auth_token;
    const terminal = (
      await api<{ id: number; ser_num: string; token: string }>(
        'POST',
        '/api/v1/attendance/add-terminal',
        { ser_num: `E2E-ATT-${RUN}`, desc: '门口考勤机' },
        login,
      )
    ).data;
    expect(terminal.token).toBeTruthy();
    const punchedAt = Date.now() - 60_000;
    const res = await fetch(`${BASE}/api/v1/device/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-token': terminal.token },
      body: JSON.stringify({
        ser_num: terminal.ser_num,
        id: `p-${RUN}`,
        ts: punchedAt,
        type: 'report',
        data: { badge: CARD, method: 'card', punched_at: punchedAt },
      }),
    });
    expect(((await res.json()) as { data: { accepted: number } }).data.accepted).toBe(1);

    // 考勤设备 → 打卡记录: the punch, matched to the employee by the card.
    await page.getByRole('tab', { name: '考勤设备' }).click();
    await page.locator('.ant-table-row', { hasText: terminal.ser_num }).waitFor();
    await page.getByText('打卡记录', { exact: true }).click();
    const punch = page.locator('.ant-table-row', { hasText: CARD });
    await punch.getByText(`周保洁（${NUMBER}）`).waitFor();
    await punch.getByText('刷卡').waitFor();
    await punch.getByText(terminal.ser_num).waitFor();
  });
});
