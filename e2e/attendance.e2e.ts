import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { simulate } from '../packages/server/src/sim/simulator.ts';
import { ADMIN_PASSWORD, BASE, api, launch, newPage, signIn } from './browser.ts';

let browser: Browser;
// Names of this run's own, so a rerun against the same server finds this run's rows.
const RUN = Date.now() % 100_000;
const USER = `e2e_att_${RUN}`;
const PASSWORD = 'e2e-attend-123';
const DEPT = `E2E保洁部${RUN}`;
const NUMBER = `E2E${RUN}`;
const CARD = `CARD${RUN}`;

beforeAll(async () => {
  browser = await launch();
  const admin = (
    await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    })
  ).data.auth_token;
  // Setup: an attendance account (role 32), as a back-office manager would create it.
  const added = await api(
    'POST',
    '/api/v1/user/add-user',
    { user_name: USER, password: PASSWORD, permissions: '32' },
    admin,
  );
  expect(added.code).toBe(200);
});
afterAll(() => browser?.close());

describe('attendance in the browser', () => {
  it('builds a department, adds an employee, assigns a scheme; a simulated terminal punches; the record reads 迟到', async () => {
    const { page } = await newPage(browser);
    await page.goto('/login?redirect=%2Fci-organization');
    await signIn(page, USER, PASSWORD);
    await page.waitForURL(/\/ci-organization$/);

    // First use founds the account's organisation: its root department is the tree's top.
    const tree = page.getByRole('tree', { name: '组织架构' });
    await tree.getByText(`${USER}的组织`).waitFor();
    await page.getByRole('button', { name: '新增下级部门' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('部门名称').fill(DEPT);
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('部门已添加').waitFor();
    await tree.getByText(DEPT).waitFor();

    // 员工管理: a new employee in that department, with the card the terminal reads.
    await page.getByRole('tab', { name: '员工管理' }).click();
    await page.getByRole('button', { name: '新增员工' }).click();
    const form = page.getByRole('dialog');
    await form.getByLabel('工号').fill(NUMBER);
    await form.getByLabel('姓名').fill('周保洁');
    await form.getByLabel('部门').click();
    await page.locator('.ant-select-tree').getByText(DEPT).click();
    await form.getByLabel('卡号').fill(CARD);
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('员工已添加').waitFor();
    const row = page.locator('.ant-table-row', { hasText: NUMBER });
    await row.getByText('周保洁').waitFor();
    await row.getByText(DEPT).waitFor();

    // Back on the tree the department counts one person.
    await page.getByRole('tab', { name: '组织架构' }).click();
    await tree.locator('.ant-tree-treenode', { hasText: DEPT }).getByText('1 人').waitFor();

    // A clock-in terminal registered by the account reports a card punch (docs/protocol.md).
    const login = (
      await api<{ auth_token: string }>('POST', '/api/v1/auth/login', { filter: USER, password: PASSWORD })
    ).data.auth_token;
    const terminal = (
      await api<{ id: number; ser_num: string; token: string }>(
        'POST',
        '/api/v1/attendance/add-terminal',
        { ser_num: `E2E-ATT-${RUN}`, desc: '门口考勤机' },
        login,
      )
    ).data;
    expect(terminal.token).toBeTruthy();
    const punchedAt = Date.now() - 60_000;
    const res = await fetch(`${BASE}/api/v1/device/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-token': terminal.token },
      body: JSON.stringify({
        ser_num: terminal.ser_num,
        id: `p-${RUN}`,
        ts: punchedAt,
        type: 'report',
        data: { badge: CARD, method: 'card', punched_at: punchedAt },
      }),
    });
    expect(((await res.json()) as { data: { accepted: number } }).data.accepted).toBe(1);

    // 考勤设备 → 打卡记录: the punch, matched to the employee by the card.
    await page.getByRole('tab', { name: '考勤设备' }).click();
    await page.locator('.ant-table-row', { hasText: terminal.ser_num }).waitFor();
    await page.getByText('打卡记录', { exact: true }).click();
    const punch = page.locator('.ant-table-row', { hasText: CARD });
    await punch.getByText(`周保洁（${NUMBER}）`).waitFor();
    await punch.getByText('刷卡').waitFor();
    await punch.getByText(terminal.ser_num).waitFor();

    // 考勤规则: a day shift 09:00–18:00 (5 minutes' grace), Monday to Friday whatever the
    // holiday calendar says, given to the department.
    await page.getByRole('tab', { name: '考勤规则' }).click();
    await page.getByRole('button', { name: /新增班次/ }).click();
    const scheme = page.getByRole('dialog');
    await scheme.getByLabel('班次名称').fill(`白班${RUN}`);
    await scheme.getByLabel('法定节假日休息、调休日上班').click();
    await scheme.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('班次已保存').waitFor();
    const schemeRow = page.locator('.ant-table-row', { hasText: `白班${RUN}` });
    await schemeRow.getByText('09:00–18:00').waitFor();
    await schemeRow.getByRole('button', { name: /分\s*配/ }).click();
    const assign = page.getByRole('dialog');
    await assign.getByLabel('部门').click();
    await page.locator('.ant-select-tree').getByText(DEPT).click();
    await assign.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('班次已分配，考勤结果将按新班次重算').waitFor();
    await schemeRow.getByText(DEPT).waitFor();

    // The terminal, simulated over MQTT as a device on site, reports the card at 09:13 and
    // 18:05 (UTC+8) on the last weekday before today: 13 minutes late.
    const DAY_MS = 86_400_000;
    const TZ_MS = 8 * 3_600_000;
    let day = Math.floor((Date.now() + TZ_MS) / DAY_MS) * DAY_MS - DAY_MS;
    while ([0, 6].includes(new Date(day).getUTCDay())) day -= DAY_MS;
    const date = new Date(day).toISOString().slice(0, 10);
    const times = [9 * 60 + 13, 18 * 60 + 5].map((m) => day + m * 60_000 - TZ_MS);
    let n = 0;
    const stats = await simulate({
      url: `mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`,
      devices: [
        {
          ser_num: terminal.ser_num,
          token: terminal.token,
          kind: 'attendance',
          model: { next: () => ({ badge: CARD, method: 'card', punched_at: times[n++ % 2] }) },
        },
      ],
      rate: 4,
      durationMs: 1500,
    });
    expect(stats.failed).toBe(0);
    expect(stats.acked).toBeGreaterThanOrEqual(2);

    // 考勤记录 for that day: 周保洁 was 13 minutes late, both punches shown.
    await page.goto(`/ci-record?record.range=${date}~${date}`);
    const result = page.locator('.ant-table-row', { hasText: NUMBER });
    await result.getByText('迟到 13 分钟').waitFor();
    await result.getByText('09:13').waitFor();
    await result.getByText('18:05').waitFor();
    await result.getByText(`白班${RUN}`).waitFor();
  });
});
