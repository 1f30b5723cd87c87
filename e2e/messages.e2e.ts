import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { BASE, adminToken, api, boundAccount, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
let token: string;
let device: { id: number; ser_num: string; token: string };
// Unique per run: a re-run against the same server finds its own device and message.
const RUN = Date.now().toString(36).slice(-5);
const SER = `E2E-MSG-${RUN}`;
const PLACE = `消息测试公厕${RUN}`;
// The inbox watched is a customer's who sees this gateway alone: admin's also gets the alarms
// of the devices other files, running beside this one, report.
const viewer = { name: `e2e-msg-${RUN}`, password: 'e2e-msg-pass' };

beforeAll(async () => {
  browser = await launch();
  token = await adminToken();
  device = (
    await api<typeof device>('POST', '/api/v1/gateway/add-gateway', { ser_num: SER, desc: PLACE }, token)
  ).data;
  await boundAccount(token, viewer, '2', [['/api/v1/gateway/bind-user-gateway', device.id]]);
});
afterAll(() => browser?.close());

async function report(data: Record<string, unknown>) {
  const res = await fetch(`${BASE}/api/v1/device/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-token': device.token },
    body: JSON.stringify({
      ser_num: device.ser_num,
      id: `msg-${Date.now()}`,
      ts: Date.now(),
      type: 'report',
      data,
    }),
  });
  expect(((await res.json()) as { code: number }).code).toBe(200);
}

describe('messages in the browser', () => {
  it('an alarm from a device report lands in /messages; reading it lowers the header count', async () => {
    const { page } = await newPage(browser);
    await page.goto('/login?redirect=%2Fmessages');
    await signIn(page, viewer.name, viewer.password);
    await page.waitForURL(/\/messages$/);
    const badge = page.getByRole('button', { name: /^站内消息/ });
    await expect.poll(() => badge.getAttribute('aria-label')).toBe('站内消息');
    await page.getByText('暂无消息').or(page.getByRole('table')).first().waitFor();
    // Let the socket subscribe, then a device reports a help-button press.
    await page.waitForTimeout(1000);
    await report({ alarm: 1 });

    // The count arrives live, and the open inbox shows the message in bold without a reload.
    await expect.poll(() => badge.getAttribute('aria-label'), { timeout: 8000 }).toBe('站内消息，1 条未读');
    const title = page.getByRole('button', { name: `未读：求助告警：${PLACE}` });
    await title.waitFor({ timeout: 8000 });

    await title.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`设备 ${SER}`, { exact: false }).waitFor();
    await expect.poll(() => badge.getAttribute('aria-label'), { timeout: 5000 }).toBe('站内消息');
    await dialog.getByRole('button', { name: '关闭' }).last().click();
    await page.getByRole('button', { name: `求助告警：${PLACE}`, exact: true }).waitFor();
    await page.context().close();
  });
});
