import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  adminToken,
  api,
  launch,
  newPage,
  newPhone,
  signIn,
  technicianWithDispenser,
} from './browser.ts';

let browser: Browser;
let admin: string;
// Names of their own, so a rerun against the same server finds this run's rows.
const RUN = Date.now() % 100_000;
const SERIAL = `E2E-BY-${RUN}`;
const TECH = `e2e_upkeep_${RUN}`;
const TECH_PASSWORD = 'tech-pass-123';
const TEAM = `保洁一班${RUN}`;
const PLAN = `除臭机月度保养${RUN}`;

beforeAll(async () => {
  browser = await launch();
  admin = await adminToken();
  // Setup, not under test: a technician who sees one dispenser, and the team it leads.
  const tech = await technicianWithDispenser(
    admin,
    { name: TECH, password: TECH_PASSWORD },
    { serial: SERIAL, desc: '湖滨公厕女卫' },
  );
  const team = await api(
    'POST',
    '/api/v1/maintenance/add-team',
    { name: TEAM, lead_id: String(tech) },
    admin,
  );
  expect(team.code, team.message).toBe(200);
});
afterAll(() => browser?.close());

/** The 保养 order the scheduler opened for the serial (its own sweep runs every minute). */
async function upkeepOrder(): Promise<string> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const r = await api<{ list: { id: number }[] }>(
      'GET',
      `/api/v1/maintenance/records?kind=upkeep&keywords=${SERIAL}`,
      undefined,
      admin,
    );
    const id = r.data?.list[0]?.id;
    if (id) return `WX${String(id).padStart(6, '0')}`;
    if (Date.now() > deadline) throw new Error('the plan opened no order within 150 s');
    await new Promise((res) => setTimeout(res, 3000));
  }
}

describe('planned maintenance', () => {
  // The scheduler sweeps every minute: the order may take that long to open.
  it(
    'a days plan falls due, its team lead ticks the checklist and completes on a phone, the manager accepts',
    { timeout: 300_000 },
    async () => {
      // The manager adds a plan on the desktop, for the device, to the team, starting now.
      const { page: mgr } = await newPage(browser);
      await mgr.goto(`/login?redirect=${encodeURIComponent('/maintenance-records?tab=plans')}`);
      await signIn(mgr, 'admin', ADMIN_PASSWORD);
      await mgr.getByRole('button', { name: /新增保养计划/ }).click();
      const form = mgr.getByRole('dialog');
      await form.getByLabel('计划名称').fill(PLAN);
      await form.getByLabel('设备类型').click();
      await mgr.locator('.ant-select-item-option', { hasText: /^除臭机$/ }).click();
      await form.getByLabel('设备序列号').fill(SERIAL);
      await form.getByLabel('维修班组').click();
      await mgr.locator('.ant-select-item-option', { hasText: TEAM }).click();
      await form.getByLabel('检查项').fill('补充香薰液\n清洗雾化片');
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await form.waitFor({ state: 'hidden' });
      const planRow = mgr.locator('.ant-table-row', { hasText: PLAN });
      await planRow.getByText(`班组 ${TEAM}`).waitFor();

      // Its start has passed: the scheduler's next sweep opens the 保养 order.
      const no = await upkeepOrder();

      // The team's lead, on a 390-px phone, ticks the steps and completes it.
      const { context: phone, page: tech } = await newPhone(browser);
      await tech.goto(`/login?redirect=${encodeURIComponent('/maintenance-records')}`);
      await signIn(tech, TECH, TECH_PASSWORD);
      await tech.getByText(no).first().waitFor();
      await tech.getByRole('button', { name: '详情' }).first().click();
      const sheet = tech.locator('.ant-drawer');
      await sheet.getByText('还有 2 项').waitFor();
      // 完工 waits for every step; a tick shows once the server has it.
      await sheet.getByRole('checkbox', { name: /补充香薰液/ }).click();
      await sheet.getByText('还有 1 项').waitFor();
      await sheet.getByRole('checkbox', { name: /清洗雾化片/ }).click();
      await sheet.getByText('已全部完成').waitFor();
      await sheet.getByRole('button', { name: '完工' }).click();
      const done = tech.getByRole('dialog', { name: '完工' });
      await done.getByLabel('处理方法').fill('按检查项保养完毕');
      await done.getByRole('button', { name: /保\s*存/ }).click();
      await done.waitFor({ state: 'hidden' });
      await sheet.getByText('待验收').first().waitFor();

      // The manager accepts it.
      await mgr.goto(`/maintenance-records?keywords=${no}`);
      const row = mgr.locator('.ant-table-row', { hasText: no });
      await row.getByText('待验收').waitFor();
      await row.getByRole('button', { name: '详情' }).click();
      const drawer = mgr.locator('.ant-drawer');
      await drawer.getByRole('button', { name: '验收通过' }).click();
      await mgr.locator('.ant-popconfirm').getByRole('button', { name: '验收通过' }).click();
      await drawer.getByText('已完成').first().waitFor();
      await phone.close();
    },
  );
});
