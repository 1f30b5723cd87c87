import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD, BASE, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
let token: string;
let toiletId: number;
/** The id in the toilet's QR code: random, unlike the internal one. */
let publicId: string;
// A name of its own, so a rerun against the same server finds this run's rows.
const TOILET = `E2E断桥公厕${Date.now() % 100_000}`;

// WeChat's in-app browser on a 375 px phone: where the QR code on the wall is scanned.
const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
  'Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN';

beforeAll(async () => {
  browser = await launch();
  token = (
    await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    })
  ).data.auth_token;
  // Setup, not under test: the toilet whose QR code the visitor scans.
  toiletId = (
    await api<{ id: number }>(
      'POST',
      '/api/v1/toilet/add-toilet',
      { name: TOILET, cityname: '杭州市', address: '白堤 1 号' },
      token,
    )
  ).data.id;
  publicId = (
    await api<{ public_id: string }>('GET', `/api/v1/toilet/get-toilet?id=${toiletId}`, undefined, token)
  ).data.public_id;
  expect(publicId).toMatch(/^[A-Za-z0-9_-]{22}$/);
});
afterAll(() => browser?.close());

describe('public reviews', () => {
  it('a visitor rates a toilet from a phone and the operator sees the review on /comment', async () => {
    // The operator has /comment open before the review arrives.
    const { page } = await newPage(browser);
    await page.goto('/login?redirect=%2Fcomment');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/comment$/);
    await page.locator('.ant-table-tbody').waitFor();
    // Give the socket a moment to subscribe.
    await page.waitForTimeout(1000);

    const phone = await browser.newContext({
      baseURL: BASE,
      viewport: { width: 375, height: 667 },
      userAgent: WECHAT_UA,
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
    });
    const visitor = await phone.newPage();
    await visitor.goto(`/add-comment?toilet_id=${publicId}`);
    await visitor.getByRole('heading', { name: TOILET }).waitFor();
    await visitor.getByText('暂无评价，欢迎第一个评价').waitFor();

    await visitor.getByRole('radio', { name: '2 星 差' }).tap();
    await visitor.locator('.rc-level', { hasText: '差' }).waitFor();
    await visitor.getByText('有异味', { exact: true }).tap();
    await visitor.getByLabel('说说您的感受（选填）').fill('洗手台旁边味道很大');
    await visitor.getByText('9/200').waitFor();
    // Nothing on the page is wider than the phone.
    const width = await visitor.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await visitor.getByRole('button', { name: '提交评价' }).tap();

    await visitor.getByText('感谢您的评价！').waitFor();
    await visitor.getByText('2 星 · 差').waitFor();
    await visitor.getByText('当前综合评分 2.0（1 人评价）').waitFor();
    await phone.close();

    // Announced live over /ws; the list moves when the operator asks.
    await page.getByText('有 1 条新评价').waitFor({ timeout: 5000 });
    await page.getByRole('button', { name: '刷新查看' }).click();
    const row = page
      .getByRole('row')
      .filter({ has: page.getByText(TOILET) })
      .filter({ has: page.getByText('洗手台旁边味道很大') });
    await row.waitFor();
    await row.getByText('有异味').waitFor();
    await row.getByText('差', { exact: true }).waitFor();
    await row.getByText('扫码').waitFor();

    // Hiding asks first, then takes the review off the list.
    await row.getByRole('button', { name: /隐\s*藏/ }).click();
    await page
      .locator('.ant-popover')
      .getByRole('button', { name: /隐\s*藏/ })
      .click();
    await page.getByText('评价已隐藏').waitFor();
    await row.waitFor({ state: 'detached' });
    await page.getByRole('checkbox', { name: '显示已隐藏' }).check();
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await row.getByText('已隐藏').waitFor();
  });

  it('tells a visitor plainly when the link has no toilet', async () => {
    const { page } = await newPage(browser);
    await page.goto('/add-comment');
    await page.getByText(/缺少厕所编号/).waitFor();
    // The internal number of a real toilet is no way in: only the QR code's public id is.
    await page.goto(`/add-comment?toilet_id=${toiletId}`);
    await page.getByText(/编号无效/).waitFor();
    await page.goto('/add-comment?toilet_id=AAAAAAAAAAAAAAAAAAAAAA');
    await page.getByText('厕所不存在或已停用，请扫描厕所内的二维码').waitFor();
  });
});
