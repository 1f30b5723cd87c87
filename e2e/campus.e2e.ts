import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ORG_API, PERMISSION, USER_API } from '@se/core';
import { ADMIN_PASSWORD, BASE, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
let gateway: { id: number; ser_num: string; token: string };
const MANAGER = `e2e_campus_${Date.now() % 100_000}`;
const PASSWORD = 'campus-pass-123';

beforeAll(async () => {
  browser = await launch();
  const admin = (
    await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    })
  ).data.auth_token;
  // Setup, not under test: the campus manager, its organisation and a gateway it owns.
  const manager = await api<{ id: number }>(
    'POST',
    USER_API.add,
    {
      user_name: MANAGER,
      password: PASSWORD,
      permissions: String(
        PERMISSION.ssManager |
          PERMISSION.ssUser |
          PERMISSION.ssVisitor |
          PERMISSION.user |
          PERMISSION.visitor,
      ),
    },
    admin,
  );
  expect(manager.code).toBe(200);
  expect(
    (await api('POST', ORG_API.add, { name: 'E2E 大学', user_id: String(manager.data.id) }, admin)).code,
  ).toBe(200);
  gateway = (
    await api<typeof gateway>(
      'POST',
      '/api/v1/gateway/add-gateway',
      { ser_num: `E2E-CAMPUS-${MANAGER}` },
      admin,
    )
  ).data;
  const bound = await api(
    'POST',
    '/api/v1/gateway/bind-user-gateway',
    { user_id: String(manager.data.id), add_ids: String(gateway.id), remove_ids: '' },
    admin,
  );
  expect(bound.code).toBe(200);
});
afterAll(() => browser?.close());

async function report(data: Record<string, unknown>) {
  const res = await fetch(`${BASE}/api/v1/device/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-token': gateway.token },
    body: JSON.stringify({
      ser_num: gateway.ser_num,
      id: String(Date.now()),
      ts: Date.now(),
      type: 'report',
      data,
    }),
  });
  expect(((await res.json()) as { code: number }).code).toBe(200);
}

describe('smart campus', () => {
  it('a manager builds a building and a room, places a gateway, and sees its readings on the room and the data centre', async () => {
    const { page } = await newPage(browser);
    await page.goto('/login?redirect=%2Fss-building');
    await signIn(page, MANAGER, PASSWORD);
    await page.waitForURL(/\/ss-building$/);
    await page.getByText('暂无楼宇，点击“新增楼宇”添加').waitFor();

    await page.getByRole('button', { name: '新增楼宇' }).click();
    const bDialog = page.getByRole('dialog', { name: '新增楼宇' });
    await bDialog.getByLabel('名称').fill('博学楼');
    await bDialog.getByLabel('编号').fill('BX');
    await bDialog.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('楼宇已新增').waitFor();
    await page.getByRole('cell', { name: '博学楼' }).waitFor();

    await page.getByRole('tab', { name: '房间管理' }).click();
    await page.waitForURL(/\/ss-room/);
    await page.getByRole('button', { name: '新增房间' }).click();
    const rDialog = page.getByRole('dialog', { name: '新增房间' });
    await rDialog.getByLabel('楼宇').click();
    await page.locator('.ant-select-item-option', { hasText: '博学楼（BX）' }).click();
    await rDialog.getByLabel('房间号').fill('301');
    await rDialog.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('房间已新增').waitFor();

    const row = page.locator('.ant-table-row', { hasText: '301' });
    await row.getByRole('button', { name: '设备' }).click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByText('此处还没有设备').waitFor();
    await drawer.getByLabel('选择设备').click();
    await page.locator('.ant-select-item-option', { hasText: gateway.ser_num }).click();
    await drawer.getByRole('button', { name: '放置到此处' }).click();
    await page.getByText('设备已放置').waitFor();
    await drawer.getByText(gateway.ser_num).waitFor();

    // The gateway reports; its readings show in the open drawer (live) and on the room's row.
    await report({ co2: 1350, male_occupy: 3, male_count: 6 });
    await drawer.getByText(/1350/).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await page.reload();
    await row.getByText('CO₂ 1350 ppm').waitFor();
    await row.getByText('需通风').waitFor();

    await page.getByRole('tab', { name: '园区数据中心' }).click();
    await page.waitForURL(/\/ss-data-center$/);
    await page.getByText('E2E 大学 · 园区数据中心').waitFor();
    await page.getByRole('button', { name: /博学楼 301.*1350/ }).waitFor();
    // A new reading reaches the open data centre through /ws.
    await report({ co2: 1620 });
    await page.getByRole('button', { name: /博学楼 301.*1620/ }).waitFor({ timeout: 10_000 });
    // The page fits a 1366 px screen without sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
  });
});
