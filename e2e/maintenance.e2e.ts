import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { JWB_WARNING, TOILET_DETAIL_API, TOILET_STATUS, addRecordPath } from '@se/core';
import {
  ADMIN_PASSWORD,
  adminToken,
  api,
  BASE,
  launch,
  newPage,
  newPhone,
  signIn,
  technicianWithDispenser,
} from './browser.ts';

let browser: Browser;
let admin: string;
let techId: number;
// Names of their own, so a rerun against the same server finds this run's rows.
const RUN = Date.now() % 100_000;
const SERIAL = `E2E-WX-${RUN}`;
const TECH = `e2e_tech_${RUN}`;
const TECH_PASSWORD = 'tech-pass-123';

beforeAll(async () => {
  browser = await launch();
  admin = await adminToken();
  // Setup, not under test: a technician (user role) who sees one dispenser.
  techId = await technicianWithDispenser(
    admin,
    { name: TECH, password: TECH_PASSWORD },
    { serial: SERIAL, desc: '断桥公厕男卫' },
  );
});
afterAll(() => browser?.close());

describe('maintenance work order', () => {
  it('a technician reports by serial with a photo on a phone; the manager assigns, the technician completes, the manager accepts', async () => {
    const { context: phone, page: tech } = await newPhone(browser);
    await tech.goto('/login?redirect=%2Fadd-maintenance-record');
    await signIn(tech, TECH, TECH_PASSWORD);
    await tech.waitForURL(/\/add-maintenance-record$/);

    // Scan-style entry: the serial, then 查找 fills the type from the device.
    await tech.getByLabel('设备序列号').fill(SERIAL);
    await tech.getByRole('button', { name: /查找/ }).click();
    await tech.getByText('断桥公厕男卫').waitFor();
    await tech.locator('.ant-select', { hasText: '除臭机' }).waitFor();
    await tech.getByLabel('故障类型').click();
    await tech.locator('.ant-select-item-option', { hasText: '缺液' }).click();
    await tech.getByLabel('故障描述').fill('液位低，出雾很弱');

    // A reload (weak signal, the page was closed) keeps the form.
    await tech.reload();
    await expect(tech.getByLabel('故障描述').inputValue()).resolves.toBe('液位低，出雾很弱');

    // A photo from the camera, compressed in the browser.
    const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#3a7' } })
      .jpeg()
      .toBuffer();
    await tech
      .locator('input[type=file]')
      .setInputFiles({ name: 'p.jpg', mimeType: 'image/jpeg', buffer: photo });
    await tech.getByAltText('照片 1').waitFor();
    await tech.getByRole('button', { name: '提交报修' }).click();
    const done = tech.getByText(/报修成功：WX\d{6}/);
    await done.waitFor();
    const no = /WX\d{6}/.exec((await done.textContent()) ?? '')![0];

    // The manager sees it on the desktop with its photo and assigns it.
    const { page: mgr } = await newPage(browser);
    await mgr.goto(`/login?redirect=${encodeURIComponent(`/maintenance-records?keywords=${no}`)}`);
    await signIn(mgr, 'admin', ADMIN_PASSWORD);
    const row = mgr.locator('.ant-table-row', { hasText: no });
    await row.waitFor();
    await expect(row.getByText('待派单').count()).resolves.toBe(1);
    await row.getByRole('button', { name: '详情' }).click();
    const drawer = mgr.locator('.ant-drawer');
    await drawer.getByAltText('照片 1').waitFor();
    await drawer.getByLabel('处理人').click();
    await mgr.locator('.ant-select-item-option', { hasText: TECH }).click();
    await drawer.getByRole('button', { name: '派单' }).click();
    await drawer.getByText('处理中').first().waitFor();

    // The technician finds it in 我负责的 on the phone and completes it.
    await tech.goto('/maintenance-records');
    await tech.getByText(no).first().waitFor();
    await tech.getByRole('button', { name: '详情' }).first().click();
    const sheet = tech.locator('.ant-drawer');
    await sheet.getByRole('button', { name: '完工' }).click();
    const dialog = tech.getByRole('dialog', { name: '完工' });
    await dialog.getByLabel('处理方法').fill('补充香薰液');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await sheet.getByText('待验收').first().waitFor();
    await expect(sheet.getByRole('button', { name: '验收通过' }).count()).resolves.toBe(0);

    // The manager accepts it.
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });
    await mgr.reload();
    await row.getByRole('button', { name: '详情' }).click();
    await drawer.getByRole('button', { name: '验收通过' }).click();
    await mgr.locator('.ant-popconfirm').getByRole('button', { name: '验收通过' }).click();
    await drawer.getByText('已完成').first().waitFor();
    await expect(drawer.locator('.ant-timeline-item').count()).resolves.toBe(4);
    await phone.close();
  });

  it("scans a device's QR code with the phone's camera and finds the device", async () => {
    // The device's code as the console encodes it, filmed by Chromium's fake camera (a y4m file).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-scan-'));
    const png = path.join(dir, 'qr.png');
    const y4m = path.join(dir, 'qr.y4m');
    await QRCode.toFile(png, `${BASE}${addRecordPath({ ser_num: SERIAL })}`, { width: 400, margin: 4 });
    const ff = spawnSync('ffmpeg', [
      ...['-loglevel', 'error', '-y', '-loop', '1', '-i', png, '-t', '2', '-r', '10'],
      ...['-vf', 'scale=400:400,pad=640:480:120:40:white', '-pix_fmt', 'yuv420p', y4m],
    ]);
    expect(ff.status, String(ff.stderr)).toBe(0);
    const camera = await launch([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${y4m}`,
    ]);
    try {
      const { page: tech } = await newPhone(camera);
      await tech.goto('/login?redirect=%2Fadd-maintenance-record');
      await signIn(tech, TECH, TECH_PASSWORD);
      await tech.waitForURL(/\/add-maintenance-record$/);
      await tech.getByRole('button', { name: /扫码/ }).click();
      await tech.getByText('断桥公厕男卫').waitFor({ timeout: 30_000 });
      await expect(tech.getByLabel('设备序列号').inputValue()).resolves.toBe(SERIAL);
    } finally {
      await camera.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Whether the toilet's 维修中 flag is set (read as the manager). */
async function underRepair(toiletId: number) {
  const res = await fetch(`${BASE}${TOILET_DETAIL_API.detail}?id=${toiletId}`, {
    headers: { 'x-token': admin },
  });
  const env = (await res.json()) as { data: { toilet: { status: number } } };
  return (env.data.toilet.status & TOILET_STATUS.repair) !== 0;
}

describe("issue 18's done-when: alarm → work order → phone completion with a photo → acceptance", () => {
  it("a dispenser out of liquid alarms, the manager opens a work order from the alarm, the technician completes it on a phone with a photo, the manager accepts; the toilet's 维修中 flag comes and goes", async () => {
    // Setup, not under test: a toilet the technician sees, with a dispenser of the technician's in it.
    const serial = `E2E-WX-DW-${RUN}`;
    const toilet = await api<{ id: number }>(
      'POST',
      '/api/v1/toilet/add-toilet',
      { name: `维修验收公厕${RUN}` },
      admin,
    );
    expect(toilet.code, toilet.message).toBe(200);
    const jwb = await api<{ id: number; token: string }>(
      'POST',
      '/api/v1/jwb/add-jwb',
      { ser_num: serial, desc: '验收除臭机' },
      admin,
    );
    expect(jwb.code, jwb.message).toBe(200);
    for (const [url, body] of [
      [TOILET_DETAIL_API.place, { toilet_id: String(toilet.data.id), add_ids: String(jwb.data.id) }],
      ['/api/v1/jwb/bind-user-jwb', { user_id: String(techId), add_ids: String(jwb.data.id) }],
      ['/api/v1/toilet/bind-user-st', { user_id: String(techId), add_ids: String(toilet.data.id) }],
    ] as const) {
      const r = await api('POST', url, body, admin);
      expect(r.code, `${url}: ${r.message}`).toBe(200);
    }
    expect(await underRepair(toilet.data.id)).toBe(false);

    // The dispenser runs out of liquid.
    const report = await fetch(`${BASE}/api/v1/device/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-token': jwb.data.token },
      body: JSON.stringify({
        ser_num: serial,
        id: `dw-${RUN}`,
        ts: Date.now(),
        type: 'report',
        data: { warning: JWB_WARNING.lackOfLiquid, liquid: 5 },
      }),
    });
    expect(((await report.json()) as { code: number }).code).toBe(200);

    // The manager, on the desktop, opens a work order from the alarm under the bell.
    const { page: mgr } = await newPage(browser);
    await mgr.goto('/login?redirect=%2Fmaintenance-records');
    await signIn(mgr, 'admin', ADMIN_PASSWORD);
    await mgr.waitForURL(/\/maintenance-records/);
    await mgr.getByRole('button', { name: /^告警中心/ }).click();
    const alarm = mgr.getByTestId('alarm-item').filter({ hasText: serial });
    await alarm.getByRole('link', { name: '报修' }).click();
    await mgr.waitForURL(/\/add-maintenance-record/);
    await mgr.getByText('验收除臭机').waitFor();
    await mgr.locator('.ant-select', { hasText: '缺液' }).waitFor();
    await mgr.getByRole('button', { name: '提交报修' }).click();
    const done = mgr.getByText(/报修成功：WX\d{6}/);
    await done.waitFor();
    const no = /WX\d{6}/.exec((await done.textContent()) ?? '')![0];
    expect(await underRepair(toilet.data.id)).toBe(true);
    await mgr.getByRole('button', { name: '查看维修记录' }).click();
    const row = mgr.locator('.ant-table-row', { hasText: no });
    await row.getByRole('button', { name: '详情' }).click();
    const drawer = mgr.locator('.ant-drawer');
    await drawer.getByLabel('处理人').click();
    await mgr.locator('.ant-select-item-option', { hasText: TECH }).click();
    await drawer.getByRole('button', { name: '派单' }).click();
    await drawer.getByText('处理中').first().waitFor();

    // The technician, on a 390-pixel-wide phone, adds a photo of the refilled dispenser and completes.
    const { context: phone, page: tech } = await newPhone(browser);
    await tech.goto(`/login?redirect=${encodeURIComponent(`/maintenance-records?keywords=${no}`)}`);
    await signIn(tech, TECH, TECH_PASSWORD);
    await tech.getByText(no).first().waitFor();
    await tech.getByRole('button', { name: '详情' }).first().click();
    const sheet = tech.locator('.ant-drawer');
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#58c' } })
      .jpeg()
      .toBuffer();
    await sheet
      .getByLabel('添加照片')
      .setInputFiles({ name: 'done.jpg', mimeType: 'image/jpeg', buffer: photo });
    await sheet.getByAltText('照片 1').waitFor();
    await sheet.getByRole('button', { name: '完工' }).click();
    const dialog = tech.getByRole('dialog', { name: '完工' });
    await dialog.getByLabel('处理方法').fill('补充香薰液，清洁液位探头');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await sheet.getByText('待验收').first().waitFor();
    expect(await underRepair(toilet.data.id)).toBe(true);
    await phone.close();

    // The manager sees the photo and accepts: the flag goes.
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });
    await mgr.reload();
    await row.getByRole('button', { name: '详情' }).click();
    await drawer.getByAltText('照片 1').waitFor();
    await drawer.getByRole('button', { name: '验收通过' }).click();
    await mgr.locator('.ant-popconfirm').getByRole('button', { name: '验收通过' }).click();
    await drawer.getByText('已完成').first().waitFor();
    expect(await underRepair(toilet.data.id)).toBe(false);
  });
});
