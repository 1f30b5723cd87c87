import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  DEVICE_KINDS,
  DOWNLOAD_API,
  PERMISSION,
  SENSOR_API,
  STATUS_FILTER,
  TOILET_API,
  type DownloadRow,
} from '@se/core';
import { addDevice, adminApp, dealers, type Account, type TestApp } from '../../test/harness.ts';
import { parseCsv } from '../devices/spreadsheet.ts';
import { runnerOf } from './runner.ts';
import { addFile, expireDownloads } from './service.ts';
import { signLink } from './signing.ts';
import { downloadsDir } from './storage.ts';

let t: TestApp;
let admin: string;
let dealer: Account;
let other: Account;
let customer: Account;

const BIG = 100_000;

const create = (token: string, name: string, params: unknown) =>
  t.post<DownloadRow>(
    DOWNLOAD_API.create,
    { name, params: typeof params === 'string' ? params : JSON.stringify(params) },
    { token },
  );

const job = async (token: string, id: number) =>
  (await t.get<DownloadRow>(DOWNLOAD_API.get, { id }, { token })).data;

/** Polls the job as the page does, keeping every snapshot, until it is done or failed. */
async function follow(token: string, id: number, timeoutMs = 120_000) {
  const seen: DownloadRow[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const j = await job(token, id);
    seen.push(j);
    if (j.status === 'done' || j.status === 'failed') return { job: j, seen };
    if (Date.now() > until) throw new Error(`job ${id} still ${j.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts an export and follows it to its end; answers the finished job. */
async function exported(token: string, name: string, params: unknown) {
  const r = await create(token, name, params);
  expect(r.code, r.message).toBe(200);
  return (await follow(token, r.data.id)).job;
}

/** Fetches a job's file the way a browser does: a signed link, then the link without headers. */
async function fetchFile(token: string, id: number) {
  const link = await t.get<{ url: string }>(DOWNLOAD_API.sign, { id }, { token });
  expect(link.code, link.message).toBe(200);
  return t.app.inject({ method: 'GET', url: link.data.url });
}

async function readXlsx(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: string[][] = [];
  // columnCount walks every row: read it once.
  const width = ws.columnCount;
  ws.eachRow((row) => rows.push(Array.from({ length: width }, (_, i) => row.getCell(i + 1).text)));
  return { name: ws.name, rows };
}

const filesInDir = () => fs.readdirSync(downloadsDir(t.ctx));

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  ({ dealer, other, customer } = await dealers(t, 'dl'));
  await runnerOf(t.ctx).start({ pollMs: 50, progressMs: 20 });
}, 60_000);
afterAll(() => t.close());

describe('device list export', () => {
  it('exports 100k dispensers in the background: the request returns at once, progress moves, the xlsx reads back', async () => {
    const seeded = Date.now();
    await t.ctx.db.query(
      `WITH d AS (
         INSERT INTO devices (kind, ser_num, "desc", location, token, warning)
         SELECT 'jwb', 'BIG' || lpad(g::text, 6, '0'), '大楼' || (g % 97) || '号公厕', '杭州', 'tk' || g,
                CASE WHEN g % 2 = 0 THEN 32768 ELSE 0 END
           FROM generate_series(1, ${BIG}) g RETURNING id)
       INSERT INTO device_bindings (device_id, user_id) SELECT id, $1 FROM d`,
      [dealer.id],
    );
    await t.ctx.db.query('ANALYZE devices');
    await t.ctx.db.query('ANALYZE device_bindings');
    console.log(`seeded ${BIG} devices in ${Date.now() - seeded} ms`);

    const asked = Date.now();
    const r = await create(dealer.token, 'devices', { kind: 'jwb' });
    expect(r.code, r.message).toBe(200);
    expect(r.data).toMatchObject({ name: 'devices', label: '设备列表', format: 'xlsx' });
    // The answer came before the export finished (no stopwatch: a loaded machine is slow, not
    // wrong). A runner may already have claimed it (PostgreSQL serves both at once).
    expect(['queued', 'running']).toContain(r.data.status);
    expect(r.data.summary).toBe('类型：除臭机');

    const { job: done, seen } = await follow(dealer.token, r.data.id);
    console.log(`exported ${BIG} devices in ${Date.now() - asked} ms`);
    expect(done, done.error).toMatchObject({ status: 'done', rows_done: BIG, total: BIG, error: '' });
    expect(seen.some((s) => s.status === 'running' && s.rows_done > 0 && s.rows_done < BIG)).toBe(true);
    expect(seen.find((s) => s.status === 'running' && s.rows_done > 0)?.total).toBe(BIG);
    expect(done.file_name).toMatch(/^除臭机列表-\d{8}\.xlsx$/);
    expect(done.size).toBeGreaterThan(1000);
    expect(done.expires_in_ms).toBeGreaterThan(6.9 * 86_400_000);
    expect(done.expires_in_ms).toBeLessThanOrEqual(7 * 86_400_000);

    const file = await fetchFile(dealer.token, done.id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent(done.file_name)}`,
    );
    expect(Number(file.headers['content-length'])).toBe(done.size);
    const sheet = await readXlsx(file.rawPayload);
    expect(sheet.name).toBe('除臭机');
    const [header, ...rows] = sheet.rows;
    expect(header!.slice(0, 3)).toEqual(['ID', '序列号', '描述']);
    expect(rows).toHaveLength(BIG);
    // Newest first, like the list; each row once.
    expect(rows[0]![1]).toBe('BIG100000');
    expect(rows.at(-1)![1]).toBe('BIG000001');
    expect(new Set(rows.map((x) => x[1])).size).toBe(BIG);
    const warning = header!.indexOf('告警');
    expect(rows[0]![warning]).toBe('缺液');
    expect(rows[1]![warning]).toBe('');
  }, 180_000);

  it('exports exactly what the list shows for the same filter', async () => {
    const filter = { keywords: '大楼5号', status: STATUS_FILTER.offline };
    // Every page of the list (past 1,000 matches its total is an estimate: 约 N 条).
    const listed: string[] = [];
    for (let page = 1; ; page++) {
      const list = await t.get<{ list: { ser_num: string }[]; total: number }>(
        `${DEVICE_KINDS.jwb.base}/${DEVICE_KINDS.jwb.plural}`,
        { ...filter, page, page_size: 100 },
        { token: dealer.token },
      );
      listed.push(...list.data.list.map((d) => d.ser_num));
      if (list.data.list.length < 100) break;
    }
    expect(listed.length).toBeGreaterThan(0);
    const r = await create(dealer.token, 'devices', { kind: 'jwb', ...filter });
    expect(r.data.summary).toBe('类型：除臭机；关键字：大楼5号；在线状态：离线');
    const { job: done } = await follow(dealer.token, r.data.id);
    expect(done).toMatchObject({ rows_done: listed.length, total: listed.length });
    const sheet = await readXlsx((await fetchFile(dealer.token, done.id)).rawPayload);
    // The same devices in the same order as the list pages.
    expect(sheet.rows.slice(1).map((row) => row[1])).toEqual(listed);
    expect(sheet.rows.slice(1).every((row) => row[2]!.startsWith('大楼5号'))).toBe(true);
  }, 60_000);

  it('exports only the devices the caller can see', async () => {
    const done = await exported(other.token, 'devices', { kind: 'jwb' });
    expect(done).toMatchObject({ status: 'done', rows_done: 0 });
    const sheet = await readXlsx((await fetchFile(other.token, done.id)).rawPayload);
    expect(sheet.rows).toHaveLength(1);
  });

  it('exports the toilet list', async () => {
    const add = await t.post(
      TOILET_API.add,
      { name: '西湖公厕', cityname: '杭州市' },
      { token: customer.token },
    );
    expect(add.code, add.message).toBe(200);
    const r = await create(customer.token, 'toilets', { keywords: '西湖' });
    expect(r.data.summary).toBe('关键字：西湖');
    const { job: done } = await follow(customer.token, r.data.id);
    expect(done.status, done.error).toBe('done');
    const sheet = await readXlsx((await fetchFile(customer.token, done.id)).rawPayload);
    expect(sheet.rows[0]!.slice(0, 3)).toEqual(['ID', '名称', '状态']);
    expect(sheet.rows.slice(1).map((row) => [row[1], row[2]])).toEqual([['西湖公厕', '正常']]);
  });
});

describe('ownership', () => {
  let mine: DownloadRow;
  beforeAll(async () => {
    mine = await exported(customer.token, 'devices', { kind: 'gateway' });
  });

  it('lists only the caller’s own jobs, newest first', async () => {
    const a = await t.get<{ list: DownloadRow[]; total: number }>(
      DOWNLOAD_API.list,
      {},
      { token: customer.token },
    );
    expect(a.data.list[0]!.id).toBe(mine.id);
    expect(a.data.list.every((j) => j.id !== undefined)).toBe(true);
    const ids = a.data.list.map((j) => j.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    const b = await t.get<{ list: DownloadRow[] }>(
      DOWNLOAD_API.list,
      { page_size: 100 },
      { token: other.token },
    );
    expect(b.data.list.map((j) => j.id)).not.toContain(mine.id);
    // Not even develop lists someone else's files.
    const c = await t.get<{ list: DownloadRow[] }>(DOWNLOAD_API.list, { page_size: 100 }, { token: admin });
    expect(c.data.list.map((j) => j.id)).not.toContain(mine.id);
  });

  it.each([
    ['another user', () => other.token],
    ['the user’s own manager', () => dealer.token],
    ['develop', () => admin],
  ])('refuses %s get, link and delete', async (_, token) => {
    const g = await t.get(DOWNLOAD_API.get, { id: mine.id }, { token: token() });
    expect(g).toMatchObject({ code: CODE.forbidden, message: '这是其他用户的导出任务，无权访问' });
    const s = await t.get(DOWNLOAD_API.sign, { id: mine.id }, { token: token() });
    expect(s.code).toBe(CODE.forbidden);
    const d = await t.post(DOWNLOAD_API.remove, { id: mine.id }, { token: token() });
    expect(d.code).toBe(CODE.forbidden);
    expect((await job(customer.token, mine.id)).status).toBe('done');
  });

  it('answers an unknown id with 404 and no session with 401', async () => {
    expect((await t.get(DOWNLOAD_API.get, { id: 999_999 }, { token: customer.token })).code).toBe(
      CODE.notFound,
    );
    expect((await t.get(DOWNLOAD_API.list, {})).code).toBe(CODE.unauthorized);
    expect((await t.post(DOWNLOAD_API.create, { name: 'devices' })).code).toBe(CODE.unauthorized);
  });

  it('deletes the owner’s job and its file', async () => {
    const done = await exported(customer.token, 'devices', { kind: 'gateway' });
    expect(filesInDir()).toContain(`${done.id}.xlsx`);
    const d = await t.post(DOWNLOAD_API.remove, { id: done.id }, { token: customer.token });
    expect(d.code, d.message).toBe(200);
    expect(filesInDir()).not.toContain(`${done.id}.xlsx`);
    expect((await t.get(DOWNLOAD_API.get, { id: done.id }, { token: customer.token })).code).toBe(
      CODE.notFound,
    );
  });
});

describe('signed links', () => {
  let done: DownloadRow;
  beforeAll(async () => {
    done = await exported(dealer.token, 'devices', { kind: 'gateway' });
  });

  it('serves the file without a session, with a Chinese file name', async () => {
    const res = await fetchFile(dealer.token, done.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[^"]+"; filename\*=UTF-8''/);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('refuses a tampered signature, id or expiry', async () => {
    const link = await t.get<{ url: string }>(DOWNLOAD_API.sign, { id: done.id }, { token: dealer.token });
    const u = new URL(link.data.url, 'http://x');
    const variants = [
      {
        ...Object.fromEntries(u.searchParams),
        sig: u.searchParams.get('sig')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
      },
      {
        ...Object.fromEntries(u.searchParams),
        expires: String(Number(u.searchParams.get('expires')) + 1000),
      },
      { ...Object.fromEntries(u.searchParams), id: String(done.id + 1) },
    ];
    for (const q of variants) {
      const res = await t.get(DOWNLOAD_API.file, q);
      expect(res).toMatchObject({
        code: CODE.forbidden,
        message: '下载链接无效，请回到下载中心重新点击下载',
      });
    }
    const junk = await t.get(DOWNLOAD_API.file, { id: done.id });
    expect(junk.code).toBe(CODE.badRequest);
  });

  it('refuses an expired link', async () => {
    const old = await signLink(t.ctx, done.id, dealer.id, Date.now() - 10 * 60_000);
    const res = await t.app.inject({ method: 'GET', url: old.url });
    expect(res.json()).toMatchObject({
      code: CODE.forbidden,
      message: '下载链接已过期，请回到下载中心重新点击下载',
    });
  });

  it('will not sign a link for a file that is not ready', async () => {
    await t.ctx.db.query(
      `INSERT INTO downloads (user_id, name, label, status, started_at, heartbeat_at)
       VALUES ($1, 'devices', '设备列表', 'running', now(), now() + interval '1 hour')`,
      [dealer.id],
    );
    const row = (
      await t.ctx.db.query<{ id: number }>(`SELECT max(id) AS id FROM downloads WHERE user_id = $1`, [
        dealer.id,
      ])
    )[0]!;
    const s = await t.get(DOWNLOAD_API.sign, { id: row.id }, { token: dealer.token });
    expect(s).toMatchObject({ code: CODE.badRequest, message: '文件还在生成中，请稍候' });
    await t.ctx.db.query(`DELETE FROM downloads WHERE id = $1`, [row.id]);
  });
});

describe('expiry', () => {
  it('deletes files after 7 days, marks the job expired and sweeps orphan files', async () => {
    const done = await exported(dealer.token, 'devices', { kind: 'evaluate' });
    const link = await t.get<{ url: string }>(DOWNLOAD_API.sign, { id: done.id }, { token: dealer.token });
    const orphan = path.join(downloadsDir(t.ctx), '424242.xlsx');
    fs.writeFileSync(orphan, 'left by a crash');
    const past = new Date(Date.now() - 2 * 3_600_000);
    fs.utimesSync(orphan, past, past);
    const young = path.join(downloadsDir(t.ctx), '434343.xlsx');
    fs.writeFileSync(young, 'being written by another copy');

    await t.ctx.db.query(`UPDATE downloads SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      done.id,
    ]);
    // Past its expiry but before the sweep: already refused.
    expect((await t.get(DOWNLOAD_API.sign, { id: done.id }, { token: dealer.token })).message).toBe(
      '文件已过期（导出文件保留7天），请重新导出',
    );
    const swept = await expireDownloads(t.ctx);
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect(filesInDir()).not.toContain(`${done.id}.xlsx`);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(young)).toBe(true);
    fs.rmSync(young);
    expect(await job(dealer.token, done.id)).toMatchObject({ status: 'expired' });
    const s = await t.get(DOWNLOAD_API.sign, { id: done.id }, { token: dealer.token });
    expect(s).toMatchObject({ code: CODE.notFound, message: '文件已过期（导出文件保留7天），请重新导出' });
    // A link handed out before expiry stops working too.
    const res = await t.app.inject({ method: 'GET', url: link.data.url });
    expect(res.json()).toMatchObject({ code: CODE.notFound });
  });
});

describe('runner', () => {
  it('re-queues a job a crash left running and finishes it; gives up after three starts', async () => {
    const runner = runnerOf(t.ctx);
    await runner.stop();
    const ins = async (attempts: number) =>
      (
        await t.ctx.db.query<{ id: number }>(
          `INSERT INTO downloads (user_id, name, label, params, status, attempts, started_at, heartbeat_at)
           VALUES ($1, 'devices', '设备列表', '{"kind":"gateway"}', 'running', $2, now(), now() - interval '1 hour')
           RETURNING id`,
          [dealer.id, attempts],
        )
      )[0]!.id;
    const crashed = await ins(1);
    const doomed = await ins(3);
    fs.writeFileSync(path.join(downloadsDir(t.ctx), `job-${crashed}.part`), 'half a file');
    await runner.start();
    await runner.idle();
    expect(await job(dealer.token, crashed)).toMatchObject({ status: 'done', error: '' });
    expect(filesInDir()).not.toContain(`job-${crashed}.part`);
    expect(await job(dealer.token, doomed)).toMatchObject({
      status: 'failed',
      error: '导出多次中断，请缩小范围后重新导出',
    });
  });

  it('leaves a job whose runner is alive (fresh heartbeat) alone', async () => {
    const id = (
      await t.ctx.db.query<{ id: number }>(
        `INSERT INTO downloads (user_id, name, label, params, status, attempts, started_at, heartbeat_at)
         VALUES ($1, 'devices', '设备列表', '{"kind":"gateway"}', 'running', 1, now(), now()) RETURNING id`,
        [dealer.id],
      )
    )[0]!.id;
    await runnerOf(t.ctx).recover(30_000);
    expect((await job(dealer.token, id)).status).toBe('running');
    await t.ctx.db.query(`DELETE FROM downloads WHERE id = $1`, [id]);
  });

  it('checks the permission again when the job runs', async () => {
    const runner = runnerOf(t.ctx);
    await runner.stop();
    const user = await t.account('dl_shortlived', PERMISSION.user | PERMISSION.visitor, dealer.id);
    const r = await create(user.token, 'devices', { kind: 'jwb' });
    expect(r.code, r.message).toBe(200);
    await t.ctx.db.query(`UPDATE users SET permissions = 0 WHERE id = $1`, [user.id]);
    await runner.start();
    await runner.idle();
    const failed = (
      await t.ctx.db.query<{ status: string; error: string }>(
        `SELECT status, error FROM downloads WHERE id = $1`,
        [r.data.id],
      )
    )[0]!;
    expect(failed).toEqual({ status: 'failed', error: '当前账号已没有导出此数据的权限' });
  });

  it('stops a running job deleted by its owner and leaves no file behind', async () => {
    const r = await create(dealer.token, 'devices', { kind: 'jwb' });
    for (let i = 0; i < 400; i++) {
      const j = await job(dealer.token, r.data.id);
      if (j.status === 'running' && j.rows_done > 0) break;
      await new Promise((res) => setTimeout(res, 10));
    }
    expect((await t.post(DOWNLOAD_API.remove, { id: r.data.id }, { token: dealer.token })).code).toBe(200);
    await runnerOf(t.ctx).idle();
    expect(
      filesInDir().filter((f) => f.startsWith(`job-${r.data.id}.`) || f.startsWith(`${r.data.id}.`)),
    ).toEqual([]);
  }, 60_000);

  it('puts a server-made file into a user’s centre (weekly reports)', async () => {
    const id = await addFile(
      t.ctx,
      customer.id,
      '智慧厕所周报',
      '周报-2026-W47.csv',
      Buffer.from('\uFEFF名称\r\n西湖\r\n'),
      {
        name: 'weekly',
        summary: '2026-11-16 至 2026-11-22',
      },
    );
    const j = await job(customer.token, id);
    expect(j).toMatchObject({
      status: 'done',
      label: '智慧厕所周报',
      file_name: '周报-2026-W47.csv',
      format: 'csv',
    });
    const res = await fetchFile(customer.token, id);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body).toBe('\uFEFF名称\r\n西湖\r\n');
  });
});

describe('refused exports', () => {
  it.each([
    [{ name: 'nope', params: '{}' }, CODE.badRequest, '没有名为“nope”的导出类型'],
    [{ name: 'devices', params: '{not json' }, CODE.badRequest, '导出参数不是合法的 JSON 对象'],
    [{ name: 'devices', params: '[1,2]' }, CODE.badRequest, '导出参数不是合法的 JSON 对象'],
    [{ name: 'devices', params: '{"kind":"toaster"}' }, CODE.badRequest, '设备类型只能是'],
    [{ name: 'devices', params: '{}' }, CODE.badRequest, '设备类型只能是'],
    [{ name: 'devices', params: '{"kind":"jwb","page_size":"x","status":"abc"}' }, CODE.badRequest, ''],
    [{ name: '', params: '{}' }, CODE.badRequest, '导出类型不能为空'],
  ])('%j → %i', async (body, code, message) => {
    const r = await t.post(DOWNLOAD_API.create, body, { token: dealer.token });
    expect(r.code).toBe(code);
    expect(r.message).toContain(message);
  });

  it('refuses an owner the caller may not manage', async () => {
    const r = await create(dealer.token, 'devices', { kind: 'jwb', owner_id: other.id });
    expect(r.code).toBe(CODE.forbidden);
  });

  it('limits a user to 5 unfinished jobs', async () => {
    const runner = runnerOf(t.ctx);
    await runner.stop();
    const u = await t.account('dl_busy', PERMISSION.user | PERMISSION.visitor, dealer.id);
    for (let i = 0; i < 5; i++)
      expect((await create(u.token, 'devices', { kind: 'gateway' })).code).toBe(200);
    const sixth = await create(u.token, 'devices', { kind: 'gateway' });
    expect(sixth).toMatchObject({
      code: CODE.rateLimited,
      message: '已有5个导出任务在进行中，请等它们完成后再导出',
    });
    await runner.start();
    await runner.idle();
  });
});

describe('telemetry export', () => {
  let gw: number;
  let sensor: number;
  let hidden: number;
  // 4 days at one report a minute: 5,760 rows, more than one keyset page.
  const start = '2026-03-01 00:00:00';
  const end = '2026-03-05 00:00:00';

  beforeAll(async () => {
    const g = await t.post<{ id: number }>(
      `${DEVICE_KINDS.gateway.base}/add-gateway`,
      { ser_num: 'TEL-GW', desc: '西湖公厕' },
      { token: dealer.token },
    );
    gw = g.data.id;
    const s = await t.post<{ id: number }>(
      SENSOR_API.add,
      { gateway_id: gw, ser_num: 'TEL-S1', desc: '男厕传感器' },
      { token: dealer.token },
    );
    sensor = s.data?.id;
    hidden = (await addDevice(t, 'gateway', 'TEL-HIDDEN', other.token)).id;
    // Readings 1 minute apart from 2026-02-28 23:00 (UTC+8) for 4 days and 2 hours: the
    // range must cut both ends.
    for (const [id, shift] of [
      [gw, 0],
      [sensor, 0.5],
      [hidden, 0],
    ] as const) {
      if (!id) continue;
      await t.ctx.db.query(
        `INSERT INTO telemetry (device_id, ts, msg_id, data)
         SELECT $1, timestamptz '2026-02-28 23:00:00+08' + (g * interval '1 minute'), 'm' || g,
                jsonb_build_object('nh3', round((g % 100) / 100.0 + $2, 2), 'co2', 400 + g, 'smk_alarm', g % 2)
           FROM generate_series(0, 6000) g`,
        [id, shift],
      );
    }
    // Two reports in the same millisecond (different message ids) straddling nothing special:
    // both must come out.
    await t.ctx.db.query(
      `INSERT INTO telemetry (device_id, ts, msg_id, data)
       VALUES ($1, timestamptz '2026-03-02 12:00:00.5+08', 'dup-a', '{"nh3": 9}'),
              ($1, timestamptz '2026-03-02 12:00:00.5+08', 'dup-b', '{"nh3": 8}')`,
      [gw],
    );
  });

  it('writes a CSV of the chosen devices over the range, in time order, with the report fields', async () => {
    expect(sensor, 'sensor created').toBeGreaterThan(0);
    const r = await create(dealer.token, 'telemetry', { ids: [gw, sensor], start, end });
    expect(r.code, r.message).toBe(200);
    expect(r.data).toMatchObject({ format: 'csv', summary: `2台设备；${start} 至 ${end}` });
    const { job: done } = await follow(dealer.token, r.data.id);
    const perDevice = 4 * 1440;
    expect(done).toMatchObject({ status: 'done', rows_done: 2 * perDevice + 2, total: 2 * perDevice + 2 });
    expect(done.file_name).toBe('历史数据-20260301-20260305.csv');
    const res = await fetchFile(dealer.token, done.id);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(res.body);
    expect(header!.slice(0, 3)).toEqual(['时间', '序列号', '描述']);
    expect(header).toContain('氨气(nh3)');
    expect(header).toContain('烟雾报警(smk_alarm)');
    expect(header).toContain('男厕位数(male_count)');
    expect(rows).toHaveLength(2 * perDevice + 2);
    const gwRows = rows.filter((x) => x[1] === 'TEL-GW');
    expect(gwRows[0]!.slice(0, 3)).toEqual(['2026-03-01 00:00:00', 'TEL-GW', '西湖公厕']);
    expect(gwRows.at(-1)![0]).toBe('2026-03-04 23:59:00');
    const nh3 = header!.indexOf('氨气(nh3)');
    const co2 = header!.indexOf('二氧化碳(co2)');
    // g = 60 is 2026-03-01 00:00 local.
    expect([gwRows[0]![nh3], gwRows[0]![co2]]).toEqual(['0.6', '460']);
    const times = gwRows.map((x) => x[0]!);
    expect(times).toEqual([...times].sort());
    expect(gwRows.filter((x) => x[0] === '2026-03-02 12:00:00').map((x) => x[nh3])).toEqual(
      expect.arrayContaining(['9', '8']),
    );
    expect(rows.filter((x) => x[1] === 'TEL-S1')[0]![nh3]).toBe('1.1');
  }, 60_000);

  it('takes every visible device of a kind', async () => {
    const done = await exported(dealer.token, 'telemetry', {
      kind: 'gateway',
      start,
      end: '2026-03-01 01:00:00',
    });
    expect(done.status, done.error).toBe('done');
    const rows = parseCsv((await fetchFile(dealer.token, done.id)).body).slice(1);
    expect(new Set(rows.map((x) => x[1]))).toEqual(new Set(['TEL-GW']));
    expect(rows).toHaveLength(60);
  });

  it.each([
    [() => ({ ids: [hidden], start, end }), CODE.notFound, '设备不存在或无权查看'],
    [() => ({ ids: [gw], start, end: '2026-04-02 00:00:00' }), CODE.badRequest, '时间范围不能超过31天'],
    [() => ({ ids: [gw], start: end, end: start }), CODE.badRequest, '结束时间必须晚于开始时间'],
    [() => ({ ids: [gw], start: '2026-02-30', end }), CODE.badRequest, '时间格式应为'],
    [() => ({ ids: [gw], end }), CODE.badRequest, '请填写开始时间'],
    [() => ({ start, end }), CODE.badRequest, '请选择设备或设备类型'],
    [
      () => ({ ids: Array.from({ length: 101 }, (_, i) => i + 1), start, end }),
      CODE.badRequest,
      '一次最多导出100台设备',
    ],
    [() => ({ kind: 'water_meter', start, end }), CODE.badRequest, '没有可导出的水表'],
  ])('refuses %#', async (params, code, message) => {
    const r = await create(dealer.token, 'telemetry', params());
    expect(r.code).toBe(code);
    expect(r.message).toContain(message);
  });

  it('lets develop export any device', async () => {
    const done = await exported(admin, 'telemetry', { ids: [hidden], start, end: '2026-03-01 00:10:00' });
    expect(done).toMatchObject({ status: 'done', rows_done: 10 });
  });
});
