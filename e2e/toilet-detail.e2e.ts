import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD, BASE, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
let token: string;
let toiletId: number;
let gw: { id: number; ser_num: string; token: string };
let seq = 0;

async function report(data: Record<string, unknown>) {
  const res = await fetch(`${BASE}/api/v1/device/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-token': gw.token },
    body: JSON.stringify({ ser_num: gw.ser_num, id: `td-${++seq}`, ts: Date.now(), type: 'report', data }),
  });
  expect(((await res.json()) as { code: number }).code).toBe(200);
}
const NAME = `E2E 详情公厕 ${Date.now() % 100000}`;

beforeAll(async () => {
  browser = await launch();
  token = (
    await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    })
  ).data.auth_token;
  gw = (
    await api<{ id: number; ser_num: string; token: string }>(
      'POST',
      '/api/v1/gateway/add-gateway',
      { ser_num: `E2E-TD-GW-${Date.now() % 100000}` },
      token,
    )
  ).data;
  toiletId = (
    await api<{ id: number }>(
      'POST',
      '/api/v1/toilet/add-toilet',
      { name: NAME, cityname: '杭州市', gateway_id: String(gw.id) },
      token,
    )
  ).data.id;
  await api(
    'POST',
    '/api/v1/toilet/update-document',
    {
      toilet_id: String(toiletId),
      male_count: '4',
      female_count: '6',
      open_time: '00:00',
      close_time: '00:00',
    },
    token,
  );
  await report({ male_occupy: 3, female_occupy: 2, nh3: 0.05 });
});
afterAll(() => browser?.close());

describe('toilet detail', () => {
  it('an operator sets 清洁中 with a note in the detail and the list shows it', async () => {
    const { page } = await newPage(browser);
    await page.goto('/login?redirect=%2Fsmart-toilet');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/smart-toilet$/);
    const row = page.getByRole('row').filter({ has: page.getByText(NAME, { exact: true }) });
    await row.getByRole('button', { name: /详情/ }).click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByText('厕位占用').waitFor();
    await expect(drawer.getByTestId('toilet-occupancy-male').innerText()).resolves.toContain('3/4');
    // Live: a report changes the open detail without a reload.
    await page.waitForTimeout(1000);
    await report({ male_occupy: 4 });
    await drawer.getByTestId('toilet-occupancy-male').getByText('4/4').waitFor({ timeout: 3000 });
    await drawer.getByRole('tab', { name: '状态' }).click();
    await drawer.getByRole('button', { name: '设为清洁中' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '设为清洁中 ·' });
    await dialog.getByLabel('备注').fill('早班保洁，约 20 分钟');
    await dialog.getByRole('button', { name: '设为清洁中' }).click();
    // The history names the change and its note.
    await drawer.getByText('早班保洁，约 20 分钟').waitFor();
    await drawer.getByRole('button', { name: '取消清洁中' }).waitFor();
    await page.locator('.ant-drawer-close').click();
    await row.locator('.ant-tag').filter({ hasText: '清洁中' }).waitFor();
  });

  it('creates a display token and opens /eternal-page with it in a second page', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login?redirect=%2Fsmart-toilet');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/smart-toilet$/);
    await page
      .getByRole('row')
      .filter({ has: page.getByText(NAME, { exact: true }) })
      .getByRole('button', { name: /详情/ })
      .click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByRole('tab', { name: '显示屏' }).click();
    await drawer.getByRole('button', { name: '新建显示令牌' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '新建显示令牌' });
    await dialog.getByLabel('名称').fill('男厕入口屏');
    await dialog.getByRole('button', { name: /创\s*建/ }).click();
    const url = await page.getByTestId('display-url').innerText();
    expect(url).toMatch(/\/eternal-page\?token=/);

    const screen = await context.newPage();
    await screen.goto(url);
    await screen.getByRole('heading', { name: NAME }).waitFor();
    await expect(screen.getByTestId('display-occupancy-male').innerText()).resolves.toMatch(/男\s*0\s*已满/);
    await expect(screen.getByTestId('display-air-level').innerText()).resolves.toContain('优');
    await expect(screen.getByTestId('display-hours').innerText()).resolves.toBe('全天开放');
    await screen.getByAltText('评价二维码').waitFor();

    // Revoked: the screen says so instead of showing stale data.
    await page
      .getByRole('button', { name: '完 成' })
      .or(page.getByRole('button', { name: '完成' }))
      .click();
    await drawer
      .getByRole('row')
      .filter({ hasText: '男厕入口屏' })
      .getByRole('button', { name: '吊销' })
      .click();
    await page
      .getByRole('button', { name: /^吊\s*销$/ })
      .last()
      .click();
    await drawer.getByText('已吊销').waitFor();
    await screen.reload();
    await screen.getByText('显示令牌已失效').waitFor();
  });
});
