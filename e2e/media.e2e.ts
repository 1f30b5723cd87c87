import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
const SUFFIX = Date.now() % 100_000;
const USER = `e2e_media_${SUFFIX}`;
const PASSWORD = 'media-pass-123';
const NAME = `门口海报${SUFFIX}`;
let dir: string;

beforeAll(async () => {
  browser = await launch();
  const token = (
    await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    })
  ).data.auth_token;
  // Setup: a media account below admin (16 media | 2 user | 1 visitor).
  const r = await api(
    'POST',
    '/api/v1/user/add-user',
    { user_name: USER, password: PASSWORD, permissions: '19' },
    token,
  );
  expect(r.code, r.message).toBe(200);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-media-'));
  await sharp({ create: { width: 800, height: 450, channels: 3, background: '#2a6f97' } })
    .withMetadata({ exif: { IFD0: { Make: 'SecretCam' } } })
    .jpeg()
    .toFile(path.join(dir, `${NAME}.jpg`));
  fs.writeFileSync(path.join(dir, 'fake.jpg'), '<!doctype html><html><script>alert(1)</script></html>');
});
afterAll(async () => {
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('media libraries', () => {
  it('a media user uploads pictures (a disguised one is refused) and the reviewer above approves', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/login?redirect=%2Fpictures');
    await signIn(page, USER, PASSWORD);
    await page.waitForURL(/\/pictures$/);
    await page.getByText('暂无图片').waitFor();
    await page.getByTestId('media-quota').getByText('0 B / 5.00 GB').waitFor();

    await page.getByRole('button', { name: '上传图片' }).click();
    await page
      .locator('input[type=file]')
      .setInputFiles([path.join(dir, `${NAME}.jpg`), path.join(dir, 'fake.jpg')]);
    await page.getByRole('button', { name: '开始上传' }).click();
    const jobs = page.getByTestId('upload-jobs');
    await jobs.getByText('已上传，待审核').waitFor();
    await jobs.getByText('文件中夹带网页或脚本内容').waitFor();
    await page.getByRole('button', { name: '关 闭' }).click();

    const row = page.locator('.ant-table-row', { hasText: NAME });
    await row.getByText('待审核').waitFor();
    await expect(row.locator('img').getAttribute('src')).resolves.toMatch(
      /\/api\/v1\/media\/items\/thumb\?id=\d+&expires=\d+&sig=/,
    );
    // The owner cannot approve their own picture.
    expect(await row.getByRole('button', { name: '通过' }).count()).toBe(0);
    await context.close();

    const admin = await newPage(browser);
    await admin.page.goto('/login?redirect=%2Fpictures');
    await signIn(admin.page, 'admin', ADMIN_PASSWORD);
    await admin.page.waitForURL(/\/pictures$/);
    await admin.page.getByText('待我审核').click();
    const pending = admin.page.locator('.ant-table-row', { hasText: NAME });
    await pending.getByRole('button', { name: '预览' }).click();
    const img = admin.page.locator('.ant-modal img');
    await img.waitFor();
    // The picture really loads (the console's CSP admits its own media).
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(800);
    await admin.page.keyboard.press('Escape');
    // The preview gone (its closing animation over) before the row's 通过 is pressed.
    await admin.page.locator('.ant-modal').waitFor({ state: 'hidden' });
    await pending.getByRole('button', { name: '通过' }).click();
    const confirm = admin.page.locator('.ant-popconfirm');
    await confirm.waitFor();
    await confirm.getByRole('button', { name: '通过' }).click();
    await admin.page.getByText('已通过审核').waitFor();
    await admin.page.getByText('内容库').click();
    await admin.page.locator('.ant-table-row', { hasText: NAME }).getByText('已通过').waitFor();
    await admin.context.close();
  });
});
