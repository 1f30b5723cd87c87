import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD, BASE, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
let token: string;
let device: { id: number; ser_num: string; token: string };

beforeAll(async () => {
  browser = await launch();
  token = (
    await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    })
  ).data.auth_token;
  device = (
    await api<typeof device>(
      'POST',
      '/api/v1/gateway/add-gateway',
      { ser_num: 'E2E-LIVE-GW', desc: '直播网关' },
      token,
    )
  ).data;
});
afterAll(() => browser?.close());

async function report(data: Record<string, unknown>) {
  const res = await fetch(`${BASE}/api/v1/device/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-token': device.token },
    body: JSON.stringify({
      ser_num: device.ser_num,
      id: String(Date.now()),
      ts: Date.now(),
      type: 'report',
      data,
    }),
  });
  expect(((await res.json()) as { code: number }).code).toBe(200);
}

describe('live data in the browser', () => {
  it('shows a device report on the open list within a second, and its alarm in the bell', async () => {
    const { page } = await newPage(browser);
    await page.goto('/login?redirect=%2Fgateways');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/gateways$/);
    const row = page.getByRole('row').filter({ has: page.getByText('E2E-LIVE-GW', { exact: true }) });
    await row.getByText('离线').waitFor();
    // Give the socket a moment to subscribe, then report without touching the page.
    await page.waitForTimeout(1000);
    const t0 = Date.now();
    await report({ nh3: 2.5, co2: 650 });
    await row.getByText('在线').waitFor({ timeout: 3000 });
    expect(Date.now() - t0).toBeLessThan(1500);
    // The NH3 reading above 1.5 opened an air-quality alarm: a 警告 toast names it.
    await page
      .getByText(/氨气 2.5 超过 1.5/)
      .first()
      .waitFor({ timeout: 3000 });
    await page.context().close();
  });
});
