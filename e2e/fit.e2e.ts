import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ORG_API, PERMISSION, TOILET_API, USER_API } from '@se/core';
import { ADMIN_PASSWORD, BASE, adminToken, api, launch, signIn } from './browser.ts';

// Issue 19: the dashboards fit a wall screen and a laptop without scrolling, and no list
// scrolls the page sideways on a 1366 px laptop.

const DASHBOARDS = ['/data-center', '/data-center2', '/display-center', '/st-data-center'];
// The campus data centre belongs to an organisation's manager.
const MANAGER = `e2e_fit_${Date.now() % 100_000}`;
const MANAGER_PASSWORD = 'fit-pass-123';
const LISTS = [
  '/users',
  '/equipments',
  '/evaluates',
  '/gateways',
  '/smart-toilet',
  '/st-gateway',
  '/comment',
  '/electric-meters',
  '/water-meters',
  '/paper-machines',
  '/download',
  '/notify',
  '/notify-object',
  '/notify-formula',
  '/messages',
  '/smart-industrial',
  '/smart-org',
  '/ss-building',
  '/ss-room',
  '/ci-organization',
  '/ci-employee',
  '/ci-device',
  '/ci-scheme',
  '/ci-record',
  '/advisement-players',
  '/pictures',
  '/texts',
  '/videos',
  '/equipment-type',
  '/fault-type',
  '/maintenance-records',
];

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
  const admin = await adminToken();
  // Setup, not under test: a campus manager and its organisation.
  const bits = PERMISSION.ssManager | PERMISSION.ssUser | PERMISSION.ssVisitor | PERMISSION.user;
  const manager = await api<{ id: number }>(
    'POST',
    USER_API.add,
    { user_name: MANAGER, password: MANAGER_PASSWORD, permissions: String(bits) },
    admin,
  );
  expect(manager.code).toBe(200);
  const org = await api(
    'POST',
    ORG_API.add,
    { name: 'E2E 适配学校', user_id: String(manager.data.id) },
    admin,
  );
  expect(org.code).toBe(200);
});
afterAll(() => browser?.close());

async function signedIn(
  width: number,
  height: number,
  user = 'admin',
  password = ADMIN_PASSWORD,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: BASE, locale: 'zh-CN', viewport: { width, height } });
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, user, password);
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  return { context, page };
}

const extent = (page: Page) =>
  page.evaluate(() => ({
    height: document.documentElement.scrollHeight,
    width: document.documentElement.scrollWidth,
    innerHeight: window.innerHeight,
    innerWidth: window.innerWidth,
  }));

describe('screens that fit', () => {
  for (const [width, height] of [
    [1920, 1080],
    [1366, 768],
  ] as const) {
    it(`shows every dashboard at ${width}×${height} without scrolling`, async () => {
      const fits = async (page: Page, path: string, ready: string) => {
        await page.goto(path);
        await page.locator(ready).first().waitFor();
        // Charts draw after the data; give the layout a moment to settle.
        await page.waitForTimeout(500);
        const e = await extent(page);
        expect({ path, height: e.height }).toEqual({ path, height: Math.min(e.height, e.innerHeight) });
        expect({ path, width: e.width }).toEqual({ path, width: Math.min(e.width, e.innerWidth) });
      };
      const admin = await signedIn(width, height);
      for (const path of DASHBOARDS) await fits(admin.page, path, '.dc-root .dc-panel');
      await admin.context.close();
      const manager = await signedIn(width, height, MANAGER, MANAGER_PASSWORD);
      await fits(manager.page, '/ss-data-center', '.cdc-panel');
      await manager.context.close();
    });
  }

  it('switches between the three data centre versions and remembers the one chosen', async () => {
    const { context, page } = await signedIn(1366, 768);
    await page.goto('/data-center');
    await page.getByText('展示版', { exact: true }).click();
    await page.waitForURL(/\/display-center$/);
    await page.getByText('智慧厕所数据展示中心').first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('od_dc_version'))).toBe('/display-center');
    await page.getByText('V2', { exact: true }).click();
    await page.waitForURL(/\/data-center2$/);
    expect(await page.evaluate(() => localStorage.getItem('od_dc_version'))).toBe('/data-center2');
    await context.close();
  });

  it('reflows the dashboards on a phone: the title stays on one line', async () => {
    const { context, page } = await signedIn(390, 844);
    await page.goto('/data-center');
    const title = page.locator('.dc-title').first();
    await title.waitFor();
    const box = (await title.boundingBox())!;
    // One line of the 22 px title, not a column of single characters.
    expect(box.height).toBeLessThan(40);
    const e = await extent(page);
    expect(e.width).toBeLessThanOrEqual(e.innerWidth);
    await context.close();
  });

  it("keeps a drawer's title on its line on a phone: the header's buttons wrap below it", async () => {
    const toilet = await api<{ id: number }>(
      'POST',
      TOILET_API.add,
      { name: '城站广场公厕' },
      await adminToken(),
    );
    expect(toilet.code).toBe(200);
    const { context, page } = await signedIn(390, 844);
    await page.goto(`/smart-toilet?toilet=${toilet.data.id}`);
    const title = page.locator('.ant-drawer-open .ant-drawer-title').first();
    await title.waitFor();
    // One line (the toilet's name and its state tag), not a column of two-character lines.
    expect((await title.boundingBox())!.height).toBeLessThan(40);
    // Measured once the drawer has slid in (mid-animation it sits partly off screen).
    const header = page.locator('.ant-drawer-open .ant-drawer-header').first();
    await expect
      .poll(async () => {
        const b = (await header.boundingBox())!;
        return b.x + b.width;
      })
      .toBeLessThanOrEqual(390);
    await context.close();
  });

  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ] as const)
    it(`never scrolls the page sideways at ${width} px, whatever the list`, async () => {
      const { context, page } = await signedIn(width, height);
      const wide: string[] = [];
      for (const path of LISTS) {
        await page.goto(path);
        await page.locator('.ant-card, .ant-table, .ant-empty').first().waitFor();
        await page.waitForTimeout(300);
        const e = await extent(page);
        if (e.width > e.innerWidth) wide.push(`${path}: ${e.width}px`);
      }
      expect(wide).toEqual([]);
      await context.close();
    }, 180_000);
});
