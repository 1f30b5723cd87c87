import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PERMISSION } from '@se/core';
import { ADMIN_PASSWORD, BASE, api, launch, newPage, signIn } from './browser.ts';
import { simulatePlayers } from '../packages/server/src/sim/players.ts';

let browser: Browser;
const stop = new AbortController();
// Names of its own, so a rerun against the same server finds this run's rows.
const RUN = Date.now() % 100_000;
const USER = `e2e_media${RUN}`;
const PASSWORD = 'e2e-media-pass';
const SER = `E2E-PLY-${RUN}`;
const NOTICE = `E2E开放时间${RUN}`;
const PLAYLIST = `E2E大厅屏${RUN}`;

beforeAll(async () => {
  browser = await launch();
  // Setup through the API (not under test): a media operator, their player and an approved
  // notice (upload and review have their own e2e).
  const admin = (
    await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
      filter: 'admin',
      password: ADMIN_PASSWORD,
    })
  ).data.auth_token;
  const made = await api(
    'POST',
    '/api/v1/user/add-user',
    {
      user_name: USER,
      password: PASSWORD,
      permissions: String(PERMISSION.media | PERMISSION.user | PERMISSION.visitor),
    },
    admin,
  );
  expect(made.code).toBe(200);
  const media = (
    await api<{ auth_token: string }>('POST', '/api/v1/auth/login', { filter: USER, password: PASSWORD })
  ).data.auth_token;
  const player = await api<{ id: number; token: string }>(
    'POST',
    '/api/v1/media/add-player',
    { ser_num: SER, desc: '大厅屏' },
    media,
  );
  expect(player.code).toBe(200);
  const text = await fetch(`${BASE}/api/v1/media/texts/add`, {
    method: 'POST',
    headers: { 'x-token': media, 'content-type': 'application/json' },
    body: JSON.stringify({ name: NOTICE, text_body: { body: '每日 05:30–23:00 开放' } }),
  }).then((r) => r.json() as Promise<{ code: number; data: { id: number } }>);
  expect(text.code).toBe(200);
  const ok = await fetch(`${BASE}/api/v1/media/review/decide`, {
    method: 'POST',
    headers: { 'x-token': admin, 'content-type': 'application/json' },
    body: JSON.stringify({ id: text.data.id, approve: true }),
  }).then((r) => r.json() as Promise<{ code: number }>);
  expect(ok.code).toBe(200);
  // The player itself: a simulated screen on the server's broker.
  const port = process.env.E2E_MQTT_PORT;
  expect(port, 'e2e/run.mjs passes the broker port').toBeTruthy();
  await simulatePlayers({
    mqttUrl: `mqtt://127.0.0.1:${port}`,
    httpBase: BASE,
    players: [{ ser_num: SER, token: player.data.token }],
    reportEveryS: 2,
    dropPerMinute: 0,
    signal: stop.signal,
  });
});
afterAll(async () => {
  stop.abort();
  await browser?.close();
});

describe('screens', () => {
  it('an operator makes a playlist, schedules it on a player, and the player reports 播放中', async () => {
    const { page } = await newPage(browser);
    await page.goto('/login?redirect=%2Fadvisement-players');
    await signIn(page, USER, PASSWORD);
    await page.waitForURL(/\/advisement-players/);
    await page.getByText(SER).waitFor();
    await expect(
      page
        .getByRole('row', { name: new RegExp(SER) })
        .getByText('未下发')
        .isVisible(),
    ).resolves.toBe(true);

    // 播放列表 → 新增: the approved notice, 8 seconds.
    await page.getByRole('tab', { name: '播放列表' }).click();
    await page.getByRole('button', { name: '新增播放列表' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('名称').fill(PLAYLIST);
    await dialog.getByLabel('添加内容').click();
    await page.locator('.ant-select-item-option', { hasText: NOTICE }).click();
    await dialog.getByLabel('时长').fill('8');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('新增成功').waitFor();
    await page.getByRole('cell', { name: PLAYLIST }).waitFor();

    // 排期 → 新增: that playlist on the player, all day.
    await page.getByRole('tab', { name: '排期' }).click();
    await page.getByRole('button', { name: '新增排期' }).click();
    const form = page.getByRole('dialog');
    await form.getByLabel('名称').fill('全天播放');
    await form.getByLabel('播放列表').click();
    await page.locator('.ant-select-item-option', { hasText: PLAYLIST }).click();
    await form.getByLabel('播放器', { exact: true }).click();
    await page.locator('.ant-select-item-option', { hasText: SER }).click();
    await form.getByLabel('名称').click(); // closes the multiple select's list
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('已保存并下发给所选播放器').waitFor();

    // 播放器: the simulated player took the manifest and plays it.
    await page.getByRole('tab', { name: '播放器' }).click();
    const row = page.getByRole('row', { name: new RegExp(SER) });
    // Its first report may say 播放中 before the one naming the item: 查询 until both show.
    const playing = async () =>
      (await row.getByText('播放中').isVisible()) && (await row.getByText(NOTICE).isVisible());
    for (let i = 0; i < 30 && !(await playing()); i++) {
      await page.waitForTimeout(1000);
      await page.getByRole('button', { name: /查\s*询/ }).click();
    }
    await row.getByText('播放中').waitFor();
    await row.getByText(NOTICE).waitFor();
  });
});
