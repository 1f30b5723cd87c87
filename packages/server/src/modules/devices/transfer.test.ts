import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE, DEVICE_KINDS, PERMISSION } from '@se/core';
import { adminApp, type TestApp } from '../../test/harness.ts';
import { SER_NUM_EXISTS } from './service.ts';
import { parseCsv } from './spreadsheet.ts';

let t: TestApp;
let admin: string;
const k = DEVICE_KINDS.jwb;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => ({ t, admin } = await adminApp()));
afterAll(() => t.close());

async function upload(body: Buffer | string, contentType: string, mode = 'all') {
  const res = await t.app.inject({
    method: 'POST',
    url: `${k.base}/import-${k.plural}?mode=${mode}`,
    headers: { 'x-token': admin, 'content-type': contentType },
    payload: body,
  });
  return res.json() as {
    code: number;
    message: string;
    data: { imported: number; total_rows: number; errors: { row: number; field: string; message: string }[] };
  };
}

async function xlsx(rows: unknown[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('s');
  rows.forEach((r) => ws.addRow(r));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('device import', () => {
  it('offers a template in both formats', async () => {
    const csv = await t.app.inject({
      url: `${k.base}/import-template-${k.one}?format=csv`,
      headers: { 'x-token': admin },
    });
    expect(csv.headers['content-disposition']).toContain("filename*=UTF-8''");
    expect(parseCsv(csv.body)[0]).toEqual(['序列号', '描述', '位置', '经度', '纬度', '版本', '地址']);
    const x = await t.app.inject({
      url: `${k.base}/import-template-${k.one}`,
      headers: { 'x-token': admin },
    });
    expect(x.headers['content-type']).toBe(XLSX);
    expect(x.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('imports nothing when any row is bad, and lists every bad row', async () => {
    const csv = '序列号,描述,经度\nIMP-1,一号,120.1\n,缺序列号,120\nIMP-2,二号,east\nIMP-1,重复,1\n';
    const r = await upload(csv, 'text/csv');
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toBe('有3行数据有误，未导入任何数据');
    expect(r.data.errors.map((e) => [e.row, e.field])).toEqual([
      [3, 'ser_num'],
      [4, 'lng'],
      [5, 'ser_num'],
    ]);
    expect(r.data.errors[2]!.message).toBe('序列号与第2行重复');
    const n = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM devices WHERE ser_num LIKE 'IMP-%'`,
    );
    expect(n[0]!.n).toBe(0);
  });

  it('imports the valid rows when asked to, bound to the importer', async () => {
    const csv = '序列号,描述,经度\nIMP-1,一号,120.1\n,缺序列号,120\nIMP-2,二号,121\n';
    const r = await upload(csv, 'text/csv', 'valid');
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ imported: 2, total_rows: 3 });
    expect(r.data.errors).toHaveLength(1);
    const list = await t.get<{ list: { ser_num: string; owners: string; desc: string }[] }>(
      `${k.base}/${k.plural}`,
      { keywords: 'IMP-' },
      { token: admin },
    );
    expect(list.data.list.map((d) => d.ser_num).sort()).toEqual(['IMP-1', 'IMP-2']);
    expect(list.data.list[0]!.owners).toBe('admin');
  });

  it('reads .xlsx and refuses serial numbers that already exist', async () => {
    const r = await upload(
      await xlsx([
        ['序列号', '描述'],
        ['IMP-1', 'again'],
        ['IMP-3', '三号'],
      ]),
      XLSX,
    );
    expect(r.code).toBe(CODE.badRequest);
    expect(r.data.errors).toEqual([{ row: 2, field: 'ser_num', message: '序列号已存在' }]);
    const ok = await upload(
      await xlsx([
        ['ser_num', 'desc'],
        ['IMP-3', '三号'],
      ]),
      XLSX,
    );
    expect(ok.data.imported).toBe(1);
  });

  it('registers each imported row like a single add: own token, kind defaults, info row, registrant, one audit entry', async () => {
    const [me] = await t.ctx.db.query<{ id: number }>(`SELECT id FROM users WHERE user_name = 'admin'`);
    const [before] = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'device.add'`,
    );
    const sers = Array.from({ length: 30 }, (_, i) => `ROWS-${String(i).padStart(2, '0')}`);
    const r = await upload(
      ['序列号,描述,经度', ...sers.map((s, i) => `${s},第${i}台,120.${i}`)].join('\n'),
      'text/csv',
    );
    expect([r.code, r.data.imported]).toEqual([200, 30]);
    const rows = await t.ctx.db.query<{
      id: number;
      ser_num: string;
      desc: string;
      lng: number;
      token: string;
      kind: string;
      parameter_num: number;
      registered_by: number;
      info: number;
      owners: number[];
    }>(
      `SELECT d.id, d.ser_num, d."desc", d.lng, d.token, d.kind, d.parameter_num, d.registered_by,
              (SELECT count(*)::int FROM device_info i WHERE i.device_id = d.id) AS info,
              (SELECT array_agg(b.user_id) FROM device_bindings b WHERE b.device_id = d.id) AS owners
         FROM devices d WHERE d.ser_num LIKE 'ROWS-%' ORDER BY d.id`,
    );
    // Ids follow the file's order, so the list (newest first) shows the last row on top.
    expect(rows.map((d) => d.ser_num)).toEqual(sers);
    expect(rows[7]).toMatchObject({ desc: '第7台', lng: 120.7, kind: 'jwb', parameter_num: 2 });
    for (const d of rows) {
      expect(d).toMatchObject({ registered_by: me!.id, info: 1, owners: [me!.id] });
      expect(d.token.length).toBeGreaterThanOrEqual(20);
    }
    expect(new Set(rows.map((d) => d.token)).size).toBe(30);
    const log = await t.ctx.db.query<{ after: unknown; actor_id: number }>(
      `SELECT after, actor_id FROM audit_log WHERE action = 'device.add' ORDER BY id`,
    );
    expect(log.length).toBe(before!.n + 1);
    expect(log.at(-1)).toEqual({ after: { imported: 30 }, actor_id: me!.id });
  });

  it('imports nothing and names the row when a serial number is registered between the check and the insert', async () => {
    // Another account registers RACE-2 after the import checked its serial numbers but before
    // its transaction starts: the moment a check-then-insert cannot close.
    const other = await t.account('racer', PERMISSION.user | PERMISSION.visitor);
    const db = t.ctx.db;
    const transaction = db.transaction.bind(db);
    for (const mode of ['all', 'valid']) {
      db.transaction = (async (fn: Parameters<typeof transaction>[0]) => {
        db.transaction = transaction;
        const add = await t.post(`${k.base}/add-${k.one}`, { ser_num: 'RACE-2' }, { token: other.token });
        expect(add.code).toBe(200);
        return transaction(fn);
      }) as typeof db.transaction;
      try {
        // With 'valid' a bad row comes along, and is still reported beside the raced one.
        const csv = '序列号,经度\nRACE-1,\nRACE-2,\nRACE-3,\n' + (mode === 'valid' ? 'RACE-4,east\n' : '');
        const r = await upload(csv, 'text/csv', mode);
        expect(r.code).toBe(CODE.conflict);
        expect(r.message).toBe('有1行的序列号刚刚被登记，未导入任何数据，请核对后重新导入');
        expect(r.data).toMatchObject({ imported: 0, total_rows: mode === 'valid' ? 4 : 3 });
        expect(r.data.errors.map((e) => [e.row, e.field])).toEqual(
          mode === 'valid'
            ? [
                [3, 'ser_num'],
                [5, 'lng'],
              ]
            : [[3, 'ser_num']],
        );
        // Worded as the check words it for this importer (admin sees every device: "exists").
        expect(r.data.errors[0]!.message).toBe(SER_NUM_EXISTS);
      } finally {
        db.transaction = transaction;
      }
      const live = await t.ctx.db.query<{ ser_num: string }>(
        `SELECT ser_num FROM devices WHERE ser_num LIKE 'RACE-%' AND NOT is_delete`,
      );
      expect(live.map((d) => d.ser_num)).toEqual(['RACE-2']);
      await t.ctx.db.query(`UPDATE devices SET is_delete = true WHERE ser_num = 'RACE-2'`);
    }
  });

  it('drops NUL characters from cells instead of failing the import', async () => {
    const r = await upload('序列号,描述\nNULCELL-1,西湖\u0000公厕\n', 'text/csv');
    expect(r.data.imported).toBe(1);
    const [row] = await t.ctx.db.query<{ desc: string }>(
      `SELECT "desc" FROM devices WHERE ser_num = 'NULCELL-1'`,
    );
    expect(row!.desc).toBe('西湖公厕');
  });

  it('answers garbage and empty files with a clear message', async () => {
    expect((await upload(Buffer.from('not a spreadsheet'), XLSX)).message).toBe(
      '无法读取文件，请使用导入模板（.xlsx 或 .csv）',
    );
    expect((await upload('描述\nx\n', 'text/csv')).message).toBe('找不到“序列号”列，请使用导入模板');
    expect((await upload('序列号\n', 'text/csv')).message).toBe('文件中没有数据行');
  });
});

describe('device export', () => {
  it('downloads the filtered list as .xlsx', async () => {
    const res = await t.app.inject({
      url: `${k.base}/export-${k.plural}?keywords=IMP-`,
      headers: { 'x-token': admin },
    });
    expect(res.headers['content-type']).toBe(XLSX);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(2).value).toBe('序列号');
    const sers = [2, 3, 4].map((n) => ws.getRow(n).getCell(2).value).sort();
    expect(sers).toEqual(['IMP-1', 'IMP-2', 'IMP-3']);
    expect(ws.getRow(2).getCell(7).value).toBe('离线');
  });

  it('refuses an owner filter outside the caller subtree before sending a file', async () => {
    const res = await t.app.inject({
      url: `${k.base}/export-${k.plural}?owner_id=99999`,
      headers: { 'x-token': admin },
    });
    expect(res.json()).toMatchObject({ code: CODE.notFound });
  });
});
