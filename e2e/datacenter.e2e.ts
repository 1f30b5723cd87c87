import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, BASE, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
let token: string;
let gateway: { id: number; ser_num: string; token: string };

beforeAll(async () => {
  browser = await launch();
  token = (
    await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    })
  ).data.auth_token;
  gateway = (
    await api<typeof gateway>(
      'POST',
      '/api/v1/gateway/add-gateway',
      { ser_num: `E2E-DC-GW-${Date.now()}`, desc: '数据中心网关' },
      token,
    )
  ).data;
  const toilet = await api(
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
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/data-center$/);
    await kpi(page, '今日客流').waitFor();
    await page.getByRole('img', { name: '厕所分布地图' }).waitFor();
    const visitors = Number(await kpi(page, '今日客流').textContent());
    const [occupied, cubicles] = (await kpi(page, '当前占用').textContent())!.split('/').map(Number);
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
      .toBe(visitors + 7);
    await page
      .getByRole('list', { name: '报警列表' })
      .getByText(/数据中心网关/)
      .first()
      .waitFor({ timeout: 5000 });
    // A toilet that starts reporting joins the occupancy with the refetch it triggers.
    await expect
      .poll(async () => await kpi(page, '当前占用').textContent(), { timeout: 5000 })
      .toBe(`${occupied! + 5}/${cubicles! + 8}`);
    expect(navigations).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
