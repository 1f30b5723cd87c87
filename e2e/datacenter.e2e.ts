import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { BASE, adminToken, api, boundAccount, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
let token: string;
let gateway: { id: number; ser_num: string; token: string };
// The page is watched as a customer who sees this gateway's toilet alone: admin sees every
// toilet, and other files running beside this one add toilets and reports of their own.
const viewer = { name: `e2e-dc-${Date.now()}`, password: 'e2e-dc-pass' };

beforeAll(async () => {
  browser = await launch();
  token = await adminToken();
  gateway = (
    await api<typeof gateway>(
      'POST',
      '/api/v1/gateway/add-gateway',
      { ser_num: `E2E-DC-GW-${Date.now()}`, desc: '数据中心网关' },
      token,
    )
  ).data;
  const toilet = await api<{ id: number }>(
    'POST',
    '/api/v1/toilet/add-toilet',
    {
      name: 'E2E数据中心公厕',
      gateway_id: String(gateway.id),
      pname: '浙江省',
      lng: '120.16',
      lat: '30.27',
    },
    token,
  );
  expect(toilet.code).toBe(200);
  // 用户 and 数据中心
  await boundAccount(token, viewer, '10', [
    ['/api/v1/gateway/bind-user-gateway', gateway.id],
    ['/api/v1/toilet/bind-user-st', toilet.data.id],
  ]);
});
afterAll(() => browser?.close());

let seq = 0;
async function report(data: Record<string, unknown>) {
  const res = await fetch(`${BASE}/api/v1/device/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-token': gateway.token },
    body: JSON.stringify({
      ser_num: gateway.ser_num,
      id: `dc-${Date.now()}-${++seq}`,
      ts: Date.now(),
      type: 'report',
      data,
    }),
  });
  expect(((await res.json()) as { code: number }).code).toBe(200);
}

const kpi = (page: Page, label: string) => page.locator(`.dc-kpi[aria-label="${label}"] .dc-kpi-value`);

describe('data centre in the browser', () => {
  it('shows a gateway report on /data-center without a reload: visitors, occupancy and the alarm feed', async () => {
    const { page } = await newPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('/login?redirect=%2Fdata-center');
    await signIn(page, viewer.name, viewer.password);
    await page.waitForURL(/\/data-center$/);
    await kpi(page, '今日客流').waitFor();
    await page.getByRole('img', { name: '厕所分布地图' }).waitFor();
    // Nothing reported yet: the customer's one toilet has had no visitors and no cubicles.
    expect(await kpi(page, '今日客流').textContent()).toBe('0');
    expect(await kpi(page, '当前占用').textContent()).toBe('0/0');
    // Let the socket subscribe, then report without touching the page.
    await page.waitForTimeout(1500);
    const navigations: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));
    await report({
      male_count: 4,
      male_occupy: 3,
      female_count: 4,
      female_occupy: 2,
      male_times: 7,
      nh3: 2.4,
    });
    await expect
      .poll(async () => Number(await kpi(page, '今日客流').textContent()), { timeout: 5000 })
      .toBe(7);
    await page
      .getByRole('list', { name: '报警列表' })
      .getByText(/数据中心网关/)
      .first()
      .waitFor({ timeout: 5000 });
    // A toilet that starts reporting joins the occupancy with the refetch it triggers.
    await expect.poll(async () => await kpi(page, '当前占用').textContent(), { timeout: 5000 }).toBe('5/8');
    expect(navigations).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
