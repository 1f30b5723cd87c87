import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_KINDS, SERVICE, TOILET_API } from '@se/core';
import { testApp, type Account, type TestApp } from '../../test/harness.ts';
import { addFile } from '../downloads/service.ts';
import { notifierOf } from './runtime.ts';
import { reportHtml } from './weekly-mail.ts';
import { buildWeeklyReport, dueWeek, mondayOf } from './weekly-report.ts';
import { reportXlsx } from './weekly-xlsx.ts';
import { claimWeeklyReport } from './weekly-repo.ts';
import { WEEKLY_CLAIM_LEASE_MS, runWeeklyReports } from './weekly.ts';

let t: TestApp;
let user: Account;
let other: Account;
const dev: Record<string, number> = {};
let toilet: number;

// The reported week: Monday 2026-03-02 00:00 to Monday 2026-03-09 00:00, UTC+8.
const START = new Date('2026-03-02T00:00:00+08:00');
const END = new Date('2026-03-09T00:00:00+08:00');
const NOW = new Date('2026-03-09T09:00:00+08:00');
const H = 3_600_000;

async function hourly(
  deviceId: number,
  hour: Date,
  sums: Record<string, number>,
  counts: Record<string, number>,
) {
  await t.ctx.db.query(
    `INSERT INTO telemetry_hourly (device_id, hour, sums, counts) VALUES ($1, $2, $3, $4)`,
    [deviceId, hour, JSON.stringify(sums), JSON.stringify(counts)],
  );
}

async function add(kind: 'jwb' | 'gateway', ser: string, token: string) {
  const r = await t.post<{ id: number }>(
    `${DEVICE_KINDS[kind].base}/add-${kind}`,
    { ser_num: ser, desc: `${ser}地点` },
    { token },
  );
  expect(r.code, r.message).toBe(200);
  return r.data.id;
}

beforeAll(async () => {
  t = await testApp();
  user = await t.account('wk_user', 7);
  other = await t.account('wk_other', 7);
  await t.ctx.db.query(`UPDATE users SET services = $2, email = 'wk@example.com' WHERE id = $1`, [
    user.id,
    SERVICE.jwbWeeklyReport | SERVICE.toiletWeeklyReport,
  ]);
  dev.j1 = await add('jwb', 'WK-J1', user.token);
  dev.j2 = await add('jwb', 'WK-J2', user.token);
  dev.j3 = await add('jwb', 'WK-J3', other.token);
  dev.g1 = await add('gateway', 'WK-G1', user.token);
  toilet = (await t.post<{ id: number }>(TOILET_API.add, { name: '周报厕所' }, { token: user.token })).data
    .id;

  // J1: 84 hours of data; the level falls 1 an hour, is refilled to 500 at hour 50.
  for (let i = 0; i < 84; i++) {
    const level = i < 50 ? 500 - i : 500 - (i - 50);
    await hourly(dev.j1!, new Date(START.getTime() + i * H), { liquid: level * 2 }, { liquid: 2 });
  }
  // J2: every hour of the week, no liquid field; plus one hour after the week (not counted).
  for (let i = 0; i < 168; i++)
    await hourly(dev.j2!, new Date(START.getTime() + i * H), { state: 1 }, { state: 1 });
  await hourly(dev.j2!, END, { state: 1 }, { state: 1 });
  // J3 is not the user's.
  await hourly(dev.j3!, START, { liquid: 100 }, { liquid: 1 });
  // G1: 10 hours, NH3 average 1.0 (two readings an hour summing to 2).
  for (let i = 0; i < 10; i++)
    await hourly(dev.g1!, new Date(START.getTime() + (24 + i) * H), { nh3: 2 }, { nh3: 2 });

  const alarm = (device: number, type: string, at: Date) =>
    t.ctx.db.query(
      `INSERT INTO alarms (device_id, type, status, opened_at, closed_at) VALUES ($1, $2, 'closed', $3, $3)`,
      [device, type, at],
    );
  await alarm(dev.j1!, 'warning', new Date(START.getTime() + 2 * H)); // Monday
  await alarm(dev.j1!, 'warning', new Date(START.getTime() + 50 * H)); // Wednesday
  await alarm(dev.j1!, 'warning', new Date(START.getTime() - H)); // the week before
  await alarm(dev.g1!, 'air', new Date(START.getTime() + 25 * H)); // Tuesday

  const comment = (stars: number, smelly: boolean, deleted = false) =>
    t.ctx.db.query(
      `INSERT INTO comments (toilet_id, star_level, smelly, is_delete, source, created_at) VALUES ($1, $2, $3, $4, 'web', $5)`,
      [toilet, stars, smelly, deleted, new Date(START.getTime() + 30 * H)],
    );
  await comment(5, false);
  await comment(4, false);
  await comment(1, true);
  await comment(1, true, true);
});
afterAll(() => t.close());

describe('weekly report timing', () => {
  it('is due from Monday 08:00 UTC+8 for the week before', () => {
    expect(mondayOf(new Date('2026-03-08T23:59:00+08:00'))).toEqual(START);
    expect(dueWeek(NOW)).toEqual({ start: START, end: END });
    // Before 08:00 on Monday the last report due is the previous week's.
    expect(dueWeek(new Date('2026-03-09T07:59:00+08:00')).start).toEqual(
      new Date('2026-02-23T00:00:00+08:00'),
    );
  });
});

describe('weekly report contents', () => {
  const me = async () =>
    (
      await t.ctx.db.query<{
        id: number;
        user_name: string;
        email: string;
        permissions: number;
        path: string;
      }>(`SELECT id, user_name, email, permissions, path FROM users WHERE id = $1`, [user.id])
    )[0]!;

  it('dispenser report: availability, alarms per day and type, liquid use of the devices the user sees', async () => {
    const r = await buildWeeklyReport(t.ctx.db, await me(), 'jwb', { start: START, end: END });
    expect(r.devices.map((d) => d.ser_num)).toEqual(['WK-J1', 'WK-J2']);
    const [j1, j2] = r.devices;
    expect(j1).toMatchObject({
      hours: 84,
      online_ratio: 0.5,
      alarms: 2,
      liquid_start: 500,
      liquid_end: 467,
      liquid_used: 82,
    });
    expect(j2).toMatchObject({ hours: 168, online_ratio: 1, alarms: 0, liquid_used: null });
    expect(r.availability).toBe(0.75);
    expect(r.alarms_by_type).toEqual([{ type: 'warning', count: 2 }]);
    expect(r.alarms_by_day).toEqual([1, 0, 1, 0, 0, 0, 0]);
    expect(r.online_by_day).toEqual([2, 2, 2, 2, 1, 1, 1]);
    expect(r.ratings).toBeNull();
    const html = reportHtml(r);
    expect(html).toContain('除臭机周报（2026-03-02 至 2026-03-08）');
    expect(html).toContain('75%');
    expect(html).not.toMatch(/<img|<script|https?:\/\//);
  });

  it('smart-toilet report: air quality levels and ratings', async () => {
    const r = await buildWeeklyReport(t.ctx.db, await me(), 'toilet', { start: START, end: END });
    expect(r.devices.map((d) => d.ser_num)).toEqual(['WK-G1']);
    expect(r.devices[0]).toMatchObject({ hours: 10, nh3: 1, alarms: 1 });
    expect(r.alarms_by_day).toEqual([0, 1, 0, 0, 0, 0, 0]);
    expect(r.ratings).toMatchObject({
      count: 3,
      average: 3.3,
      stars: [1, 0, 0, 1, 1],
      smelly: 1,
      toilets: [{ name: '周报厕所', count: 3, average: 3.3 }],
    });
    const html = reportHtml(r);
    expect(html).toContain('1（良）');
    expect(html).toContain('评价（3 条，平均 3.3 星）');
  });

  it('the workbook holds the same numbers', async () => {
    const r = await buildWeeklyReport(t.ctx.db, await me(), 'jwb', { start: START, end: END });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await reportXlsx(r)) as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['概览', '每日趋势', '设备明细', '告警']);
    const row = wb.getWorksheet('设备明细')!.getRow(2).values as unknown[];
    expect(row.slice(1)).toEqual(['WK-J1', 'WK-J1地点', 84, 50, 2, 500, 467, 82]);
  });
});

describe('runWeeklyReports', () => {
  it('sends each subscribed report once per week: a file in the download centre and an HTML e-mail', async () => {
    expect(await runWeeklyReports(t.ctx, NOW)).toBe(2);
    // A restart (or another server copy) an hour later sends nothing again.
    expect(await runWeeklyReports(t.ctx, new Date(NOW.getTime() + H))).toBe(0);
    const files = await t.ctx.db.query<{ label: string; file_name: string; status: string; format: string }>(
      `SELECT label, file_name, status, format FROM downloads WHERE user_id = $1 ORDER BY id`,
      [user.id],
    );
    expect(files).toEqual([
      expect.objectContaining({ label: '除臭机周报', status: 'done', format: 'xlsx' }),
      expect.objectContaining({ label: '智慧厕所周报', status: 'done', format: 'xlsx' }),
    ]);
    expect(files[0]!.file_name).toContain('2026-03-02');
    const mails = await t.ctx.db.query<{ target: string; payload: { subject: string; html: string } }>(
      `SELECT target, payload FROM deliveries WHERE kind = 'weekly' ORDER BY id`,
    );
    expect(mails.map((m) => m.payload.subject)).toEqual([
      '除臭机周报（2026-03-02 至 2026-03-08）',
      '智慧厕所周报（2026-03-02 至 2026-03-08）',
    ]);
    expect(mails[0]!.target).toBe('wk@example.com');
    await notifierOf(t.ctx)!.worker.drain();
    const outbox = await t.ctx.db.query<{ subject: string }>(
      `SELECT subject FROM outbox WHERE to_addr = 'wk@example.com'`,
    );
    expect(outbox).toHaveLength(2);
    // Users without the service get nothing.
    expect((await t.ctx.db.query(`SELECT 1 FROM weekly_reports WHERE user_id = $1`, [other.id])).length).toBe(
      0,
    );
  });

  it('rebuilds a report whose run died between the claim and the build, once the claim is past its lease', async () => {
    // The next week's reports; a copy claimed the dispenser one and died before building it.
    const now = new Date(NOW.getTime() + 7 * 24 * H);
    const week = dueWeek(now);
    expect(
      await claimWeeklyReport(t.ctx.db, user.id, 'jwb', week.start, now, WEEKLY_CLAIM_LEASE_MS),
    ).toBeDefined();
    const weekFiles = async () =>
      (
        await t.ctx.db.query<{ label: string }>(
          `SELECT label FROM downloads WHERE user_id = $1 AND params->>'week_start' = '2026-03-09' ORDER BY label`,
          [user.id],
        )
      ).map((f) => f.label);
    const weekMails = async () =>
      (
        await t.ctx.db.query<{ subject: string }>(
          `SELECT payload->>'subject' AS subject FROM deliveries WHERE kind = 'weekly' AND payload->>'subject' LIKE '%2026-03-09 至%' ORDER BY 1`,
        )
      ).map((m) => m.subject);

    // Inside the lease the claim may still be building elsewhere: only the other report is made.
    expect(await runWeeklyReports(t.ctx, new Date(now.getTime() + 5 * 60_000))).toBe(1);
    expect(await weekFiles()).toEqual(['智慧厕所周报']);
    // Past the lease the claim is taken over and the report built.
    const later = new Date(now.getTime() + WEEKLY_CLAIM_LEASE_MS + 5 * 60_000);
    expect(await runWeeklyReports(t.ctx, later)).toBe(1);
    expect(await weekFiles()).toEqual(['智慧厕所周报', '除臭机周报']);
    expect(await weekMails()).toEqual([
      '智慧厕所周报（2026-03-09 至 2026-03-15）',
      '除臭机周报（2026-03-09 至 2026-03-15）',
    ]);
    // Built now: neither a later run nor a later claim makes it again.
    expect(await runWeeklyReports(t.ctx, new Date(later.getTime() + 2 * WEEKLY_CLAIM_LEASE_MS))).toBe(0);
    expect(
      await claimWeeklyReport(t.ctx.db, user.id, 'jwb', week.start, later, WEEKLY_CLAIM_LEASE_MS),
    ).toBeUndefined();
  });

  it('keeps the file a dead run already stored and sends the e-mail it did not', async () => {
    const now = new Date(NOW.getTime() + 14 * 24 * H);
    const week = dueWeek(now);
    const claim = await claimWeeklyReport(
      t.ctx.db,
      user.id,
      'toilet',
      week.start,
      now,
      WEEKLY_CLAIM_LEASE_MS,
    );
    expect(claim).toBeDefined();
    // The dead run got as far as the file.
    await addFile(t.ctx, user.id, '智慧厕所周报', 'x.xlsx', Buffer.from('x'), {
      name: 'weekly-toilet',
      params: { week_start: '2026-03-16' },
    });
    await runWeeklyReports(t.ctx, new Date(now.getTime() + WEEKLY_CLAIM_LEASE_MS + 60_000));
    const files = await t.ctx.db.query(
      `SELECT 1 FROM downloads WHERE user_id = $1 AND name = 'weekly-toilet' AND params->>'week_start' = '2026-03-16'`,
      [user.id],
    );
    expect(files).toHaveLength(1);
    const mails = await t.ctx.db.query(
      `SELECT 1 FROM deliveries WHERE kind = 'weekly' AND payload->>'subject' = '智慧厕所周报（2026-03-16 至 2026-03-22）'`,
    );
    expect(mails).toHaveLength(1);
  });
});
