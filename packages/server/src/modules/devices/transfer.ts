import {
  CODE,
  DEVICE_KINDS,
  GATEWAY_TYPES,
  PERMISSION,
  addDeviceBody,
  formatDateTime,
  has,
  warningLabels,
  type DeviceKind,
  type DeviceListQuery,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { AppError, badRequest, forbidden } from '../../errors.ts';
import { issueMessage } from '../../http/validation.ts';
import { roleDevice } from '../access/devices.ts';
import { audit } from '../audit/service.ts';
import * as repo from './repo.ts';
import { filterOf, registeredRow, takenSerNumMessages } from './service.ts';
import { readRows, toCsv, xlsxBuffer, xlsxStream, type Column } from './spreadsheet.ts';

/** Import columns: the template's Chinese headers; English field names are accepted too. */
const IMPORT_COLUMNS = [
  { header: '序列号', key: 'ser_num', example: 'SN20240001' },
  { header: '描述', key: 'desc', example: '西湖公厕男卫' },
  { header: '位置', key: 'location', example: '杭州市西湖区北山街1号' },
  { header: '经度', key: 'lng', example: '120.1551' },
  { header: '纬度', key: 'lat', example: '30.2741' },
  { header: '版本', key: 'version', example: '' },
  { header: '地址', key: 'url', example: '' },
] as const;
const GATEWAY_TYPE_COLUMN = { header: '类型', key: 'type', example: '40' } as const;

const importColumns = (kind: DeviceKind) =>
  kind === 'gateway' ? [...IMPORT_COLUMNS, GATEWAY_TYPE_COLUMN] : [...IMPORT_COLUMNS];

export const MAX_IMPORT_ROWS = 5000;
/**
 * Rows per INSERT of an import: one statement per chunk instead of two per row keeps the
 * transaction (which holds the embedded database's only connection) well under a second.
 */
const IMPORT_CHUNK = 1000;
/**
 * Columns an import may use: the template has at most 8, reordered or mixed with a few of
 * the user's own they still fit; a value further right is refused before any row is read.
 */
export const MAX_IMPORT_COLUMNS = 50;

/** Thrown inside the import's transaction to roll it back when a serial number raced in. */
class ImportRace extends Error {}

export interface RowError {
  row: number;
  field: string;
  message: string;
}

export function template(kind: DeviceKind, format: 'xlsx' | 'csv') {
  return sheetTemplate(DEVICE_KINDS[kind].label, importColumns(kind), format);
}

/** An import template: the header row and one example row, as `<label>导入模板.xlsx|csv`. */
export async function sheetTemplate(
  label: string,
  cols: readonly { header: string; key: string; example: string }[],
  format: 'xlsx' | 'csv',
) {
  const name = `${label}导入模板.${format}`;
  if (format === 'csv') {
    return {
      name,
      type: 'text/csv; charset=utf-8',
      body: Buffer.from(toCsv([cols.map((c) => c.header), cols.map((c) => c.example)])),
    };
  }
  const body = await xlsxBuffer(
    label,
    cols.map((c) => ({ header: c.header, key: c.key, width: 22 })),
    [Object.fromEntries(cols.map((c) => [c.key, c.example]))],
  );
  return { name, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body };
}

/**
 * Checks every row first. With mode 'all' a single bad row imports nothing and the answer
 * lists every problem; with 'valid' the good rows go in, in one transaction, bound to the
 * importer, and the bad ones are reported.
 */
export async function importDevices(
  ctx: AppContext,
  caller: Caller,
  kind: DeviceKind,
  file: Buffer | undefined,
  contentType: string,
  mode: 'all' | 'valid',
  ip: string,
) {
  if (!has(caller.permission, PERMISSION.user) && !roleDevice(caller, kind)) {
    throw forbidden('只有用户及以上角色可以登记设备');
  }
  if (!Buffer.isBuffer(file) || file.length === 0) throw badRequest('请上传 .xlsx 或 .csv 文件');
  // Refusals (limits, bombs, wrong types, time budget) come back as 400s with their reason.
  const rows = await readRows(file, contentType, {
    maxRows: MAX_IMPORT_ROWS + 1,
    maxColumns: MAX_IMPORT_COLUMNS,
  });
  const [header = [], ...data] = rows.filter((r) => r.some((c) => c !== ''));
  const cols = importColumns(kind);
  const index = new Map<string, number>();
  header.forEach((h, i) => {
    const col = cols.find((c) => c.header === h.trim() || c.key === h.trim());
    if (col) index.set(col.key, i);
  });
  if (!index.has('ser_num')) throw badRequest('找不到“序列号”列，请使用导入模板');
  if (data.length === 0) throw badRequest('文件中没有数据行');
  if (data.length > MAX_IMPORT_ROWS) throw badRequest(`一次最多导入${MAX_IMPORT_ROWS}行`);

  const errors: RowError[] = [];
  const valid: { row: number; value: ReturnType<typeof addDeviceBody.parse> }[] = [];
  const seen = new Map<string, number>();
  data.forEach((cells, i) => {
    const row = i + 2; // spreadsheet row number: header is row 1
    const input: Record<string, string> = {};
    for (const [key, at] of index) if (cells[at] !== undefined && cells[at] !== '') input[key] = cells[at]!;
    const r = addDeviceBody.safeParse(input);
    if (!r.success) {
      for (const issue of r.error.issues) {
        errors.push({ row, field: String(issue.path[0] ?? ''), message: issueMessage(issue, input) });
      }
      return;
    }
    if (
      kind === 'gateway' &&
      r.data.type !== undefined &&
      !GATEWAY_TYPES.some((g) => g.value === r.data.type)
    ) {
      errors.push({ row, field: 'type', message: '网关类型只能是 40 或 43' });
      return;
    }
    const dup = seen.get(r.data.ser_num);
    if (dup) {
      errors.push({ row, field: 'ser_num', message: `序列号与第${dup}行重复` });
      return;
    }
    seen.set(r.data.ser_num, row);
    valid.push({ row, value: r.data });
  });
  const taken = await repo.existingSerNums(
    ctx.db,
    valid.map((v) => v.value.ser_num),
  );
  const takenMessage = await takenSerNumMessages(ctx, caller, [...taken]);
  const fresh = valid.filter((v) => {
    if (!taken.has(v.value.ser_num)) return true;
    errors.push({ row: v.row, field: 'ser_num', message: takenMessage(v.value.ser_num) });
    return false;
  });
  errors.sort((a, b) => a.row - b.row);
  if (errors.length && mode === 'all') {
    throw new AppError(
      CODE.badRequest,
      `有${new Set(errors.map((e) => e.row)).size}行数据有误，未导入任何数据`,
      {
        imported: 0,
        total_rows: data.length,
        errors,
      },
    );
  }
  let raced: typeof fresh = [];
  await ctx.db
    .transaction(async (tx) => {
      const ids: number[] = [];
      for (let i = 0; i < fresh.length; i += IMPORT_CHUNK) {
        // Between statements the event loop gets a turn (sockets, timers): the transaction keeps
        // the embedded database's one connection, but the process is not held for the whole file.
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        const chunk = fresh.slice(i, i + IMPORT_CHUNK);
        const got = await repo.insertDevices(
          tx,
          chunk.map((v) => registeredRow(kind, v.value)),
          caller.id,
        );
        raced = raced.concat(chunk.filter((v) => !got.has(v.value.ser_num)));
        if (raced.length === 0) for (const v of chunk) ids.push(got.get(v.value.ser_num)!);
      }
      // A serial number registered since the check: nothing of the file goes in, as when the
      // check itself finds it, and the answer names the rows (throwing rolls back).
      if (raced.length) throw new ImportRace();
      await repo.bindDevices(tx, caller.id, ids);
      if (ids.length) {
        await audit(tx, {
          actorId: caller.id,
          targetUserId: caller.id,
          action: 'device.add',
          entity: kind,
          entityId: null,
          before: null,
          after: { imported: ids.length },
          ip,
        });
      }
    })
    .catch(async (err: unknown) => {
      if (!(err instanceof ImportRace)) throw err;
      const message = await takenSerNumMessages(
        ctx,
        caller,
        raced.map((v) => v.value.ser_num),
      );
      throw new AppError(
        CODE.conflict,
        `有${raced.length}行的序列号刚刚被登记，未导入任何数据，请核对后重新导入`,
        {
          imported: 0,
          total_rows: data.length,
          errors: [
            ...errors,
            ...raced.map((v) => ({ row: v.row, field: 'ser_num', message: message(v.value.ser_num) })),
          ].sort((a, b) => a.row - b.row),
        },
      );
    });
  return { imported: fresh.length, total_rows: data.length, errors };
}

const EXPORT_PAGE = 1000;

export function exportColumns(kind: DeviceKind): Column[] {
  const cols: Column[] = [
    { header: 'ID', key: 'id', width: 8 },
    { header: '序列号', key: 'ser_num', width: 20 },
    { header: '描述', key: 'desc', width: 24 },
    { header: '位置', key: 'location', width: 28 },
    { header: '经度', key: 'lng', width: 12 },
    { header: '纬度', key: 'lat', width: 12 },
    { header: '状态', key: 'online', width: 8 },
    { header: '最后上报', key: 'time', width: 20 },
  ];
  if (kind === 'jwb')
    cols.push(
      { header: '告警', key: 'warning', width: 20 },
      { header: '参数组', key: 'parameter_num', width: 8 },
    );
  if (kind === 'gateway') cols.push({ header: '类型', key: 'type', width: 18 });
  if (kind === 'electric_meter' || kind === 'water_meter')
    cols.push({ header: '读数', key: 'reading', width: 12 });
  if (kind === 'evaluate')
    cols.push(
      { header: '评价数', key: 'star_count', width: 10 },
      { header: '平均星级', key: 'star_level', width: 10 },
    );
  cols.push(
    { header: '版本', key: 'version', width: 12 },
    { header: '绑定用户', key: 'owners', width: 24 },
    { header: '登记时间', key: 'created_at', width: 20 },
  );
  return cols;
}

/**
 * Every device of the filtered list, page by page, as spreadsheet rows: the matching ids in
 * one query, then full rows a chunk of ids at a time (no OFFSET walk, no count per page).
 */
export async function* exportRows(
  ctx: AppContext,
  caller: Caller,
  kind: DeviceKind,
  q: Omit<DeviceListQuery, 'page' | 'page_size'>,
) {
  const f = await filterOf(ctx, caller, kind, q);
  const ids = await repo.matchingIds(ctx.db, f);
  for (let i = 0; i < ids.length; i += EXPORT_PAGE) {
    const rows = await repo.rowsByIds(ctx.db, ids.slice(i, i + EXPORT_PAGE), f.offlineMs);
    yield rows.map((d) => ({
      ...d,
      online: d.online ? '在线' : '离线',
      time: d.time === null ? '从未上报' : formatDateTime(d.time),
      warning: warningLabels(d.warning, kind).join('、'),
      type: GATEWAY_TYPES.find((g) => g.value === d.type)?.label ?? d.type,
    }));
  }
}

export function exportStream(ctx: AppContext, caller: Caller, kind: DeviceKind, q: DeviceListQuery) {
  return xlsxStream(DEVICE_KINDS[kind].label, exportColumns(kind), exportRows(ctx, caller, kind, q));
}
