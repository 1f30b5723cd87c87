// Meters and industrial monitors in Chromium, fed through the real ingest path (HTTP device
// reports, as the simulator's devices send them): a meter's drawer shows the daily usage the
// meter handler derived from its cumulative readings, and /smart-industrial shows a BH-50
// monitor's readings with their exposure level, without the toilet air alarm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, BASE, adminToken, api, launch, newPage, signIn } from './browser.ts';

type Device = { id: number; ser_num: string; token: string };

let browser: Browser;
let token: string;
const stamp = Date.now();

beforeAll(async () => {
  browser = await launch();
  token = await adminToken();
});
afterAll(() => browser?.close());

let seq = 0;
async function report(d: Device, ts: number, data: Record<string, unknown>) {
  const res = await fetch(`${BASE}/api/v1/device/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-token': d.token },
    body: JSON.stringify({ ser_num: d.ser_num, id: `mi-${stamp}-${++seq}`, ts, type: 'report', data }),
  });
  expect(((await res.json()) as { code: number }).code).toBe(200);
}

async function signedIn(path: string): Promise<Page> {
  const { page } = await newPage(browser);
  await page.goto(`/login?redirect=${encodeURIComponent(path)}`);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.waitForURL((u) => u.pathname === path);
  return page;
}

const row = (page: Page, text: string) =>
  page.getByRole('row').filter({ has: page.getByText(text, { exact: true }) });

describe('meters and industry in the browser', () => {
  it("a meter's drawer shows the daily usage derived from its readings", async () => {
    const meter = (
      await api<Device>(
        'POST',
        '/api/v1/extras/add-electric-meter',
        { ser_num: `E2E-EM-${stamp}`, desc: '端到端电表' },
        token,
      )
    ).data;
    // Both readings within one UTC+8 day (this checks the day's usage, not the midnight carry,
    // which a run just after 00:00 UTC+8 would straddle).
    const now = Date.now();
    const DAY = 86_400_000;
    const dayStart = Math.floor((now + 8 * 3_600_000) / DAY) * DAY - 8 * 3_600_000;
    const first = Math.max(now - 20 * 60_000, dayStart + 1000);
    await report(meter, first, { reading: 1000 });
    await report(meter, Math.max(now - 10 * 60_000, first + 1000), { reading: 1012.5 });
    const page = await signedIn('/electric-meters');
    await row(page, meter.ser_num).getByRole('button', { name: '详情' }).click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByRole('tab', { name: '用量' }).click();
    await drawer.getByRole('img', { name: '用量图' }).waitFor();
    await expect(drawer.getByRole('cell', { name: '12.5', exact: true }).count()).resolves.toBeGreaterThan(0);
  });

  it("/smart-industrial shows a BH-50 monitor's readings with their level, and no toilet air alarm", async () => {
    const monitor = (
      await api<Device>(
        'POST',
        '/api/v1/gateway/add-gateway',
        { ser_num: `E2E-BH-${stamp}`, desc: '端到端监测仪', industrial_type: 'BH-50' },
        token,
      )
    ).data;
    // NH3 60 ppm = 41.79 mg/m³, above PC-STEL 30 (超限); H2S 1 ppm = 1.39 mg/m³, under half its MAC.
    await report(monitor, Date.now(), { nh3: 60, h2s: 1, co2: 800 });
    const page = await signedIn('/smart-industrial');
    const r = row(page, monitor.ser_num);
    await r.waitFor();
    await expect(r.getByText('60 ppm').count()).resolves.toBe(1);
    await expect(r.locator('.ant-tag', { hasText: '超限' }).count()).resolves.toBe(1);
    await expect(r.locator('.ant-tag', { hasText: '正常' }).count()).resolves.toBeGreaterThan(0);
    await expect(r.getByText('在线').count()).resolves.toBe(1);
    // Far above a toilet's NH3 threshold, yet a workshop's gases open no air alarm.
    const alarms = await api<{ list: { device_id: number; type: string }[] }>(
      'GET',
      `/api/v1/alarm/alarms?device_id=${monitor.id}&status=all`,
      undefined,
      token,
    );
    expect(alarms.code).toBe(200);
    expect(alarms.data.list.filter((a) => a.type === 'air')).toEqual([]);
  });
});
