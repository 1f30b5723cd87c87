import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
  const login = await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
    filter: 'admin',
    password: ADMIN_PASSWORD,
  });
  // Setup, not under test: three gateways whose description the export is filtered by.
  for (const n of [1, 2, 3]) {
    await api(
      'POST',
      '/api/v1/gateway/add-gateway',
      { ser_num: `E2E-DL-${n}`, desc: `下载中心测试网关${n}` },
      login.data.auth_token,
    );
  }
});
afterAll(() => browser?.close());

describe('download centre', () => {
  it('exports a filtered device list in the background and downloads the xlsx from /download', async () => {
    const { page } = await newPage(browser);
    await page.goto(`/login?redirect=${encodeURIComponent('/gateways')}`);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname === '/gateways');

    await page.getByLabel('关键字').fill('下载中心测试网关');
    await page.getByRole('button', { name: '查询' }).click();
    await page.getByText('E2E-DL-3', { exact: true }).waitFor();
    await page.getByRole('button', { name: '导出' }).click();
    await page.getByText('已加入下载中心').waitFor();
    await page.getByRole('link', { name: '前往下载中心' }).click();
    await page.waitForURL((u) => u.pathname === '/download');

    const row = page.getByRole('row').filter({ hasText: '关键字：下载中心测试网关' }).first();
    await row.getByText('已完成').waitFor({ timeout: 20_000 });
    await row.getByText('3 行').waitFor();
    await row.getByText('剩余 7 天').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: '下载' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^网关列表-\d{8}\.xlsx$/);
    const file = await download.path();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync(file) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const width = ws.columnCount;
    const rows: string[][] = [];
    ws.eachRow((r) => rows.push(Array.from({ length: width }, (_, i) => r.getCell(i + 1).text)));
    expect(rows[0]!.slice(0, 3)).toEqual(['ID', '序列号', '描述']);
    expect(rows.slice(1).map((r) => r[1])).toEqual(['E2E-DL-3', 'E2E-DL-2', 'E2E-DL-1']);
    expect(rows.slice(1).map((r) => r[2])).toEqual([
      '下载中心测试网关3',
      '下载中心测试网关2',
      '下载中心测试网关1',
    ]);

    // Deleting asks first, then the job and its file are gone.
    const jobs = page.getByRole('row').filter({ hasText: '关键字：下载中心测试网关' });
    const before = await jobs.count();
    await row.getByRole('button', { name: '删除' }).click();
    await page.getByText('确定删除“设备列表”吗？').waitFor();
    await page.getByRole('button', { name: '删除', exact: true }).last().click();
    await expect.poll(() => jobs.count(), { timeout: 10_000 }).toBe(before - 1);
  }, 90_000);
});
