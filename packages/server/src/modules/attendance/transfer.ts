/**
 * Employees in and out of Excel (issue 16), modelled on the device import: a template,
 * every row checked before anything is written, row-level errors, mode 'all' (one bad row
 * imports nothing) or 'valid' (the good rows go in), one INSERT per chunk.
 */
import { CODE, EMPLOYEE_STATUS, addEmployeeBody, type EmployeeRow } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { AppError, badRequest } from '../../errors.ts';
import { issueMessage } from '../../http/validation.ts';
import { create } from '../audit/mutate.ts';
import { readRows, type Column } from '../devices/spreadsheet.ts';
import { MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS, sheetTemplate, type RowError } from '../devices/transfer.ts';
import * as repo from './repo.ts';
import { departments, listEmployees, orgOf } from './service.ts';

const COLUMNS = [
  { header: '工号', key: 'number', example: 'E0001' },
  { header: '姓名', key: 'name', example: '张三' },
  { header: '部门', key: 'department', example: '保洁部/一组' },
  { header: '职位', key: 'position', example: '保洁员' },
  { header: '手机号', key: 'phone', example: '13800000000' },
  { header: '身份证号', key: 'id_card', example: '' },
  { header: '卡号', key: 'badge_no', example: 'C0001' },
  { header: '人脸ID', key: 'face_id', example: '' },
  { header: '入职日期', key: 'hire_date', example: '2026-01-05' },
  { header: '状态', key: 'status', example: '在职' },
] as const;

const IMPORT_CHUNK = 1000;

export const template = (format: 'xlsx' | 'csv') => sheetTemplate('员工', COLUMNS, format);

/**
 * A department named in a sheet: its path of names below the root ('保洁部/一组'), the
 * root's own name, or a name only one department carries.
 */
function departmentResolver(tree: { id: number; parent_id: number | null; name: string }[]) {
  const byId = new Map(tree.map((d) => [d.id, d]));
  const fullName = (d: (typeof tree)[number]): string => {
    const names: string[] = [];
    for (let n: (typeof tree)[number] | undefined = d; n && n.parent_id !== null; n = byId.get(n.parent_id)) {
      names.unshift(n.name);
    }
    return names.join('/');
  };
  const byPath = new Map<string, number>();
  const byName = new Map<string, number[]>();
  for (const d of tree) {
    byPath.set(d.parent_id === null ? d.name : fullName(d), d.id);
    byName.set(d.name, [...(byName.get(d.name) ?? []), d.id]);
  }
  return (text: string): number | string => {
    const t = text
      .split('/')
      .map((s) => s.trim())
      .filter(Boolean)
      .join('/');
    if (!t) return '请填写部门';
    const exact = byPath.get(t);
    if (exact) return exact;
    const named = byName.get(t) ?? [];
    if (named.length === 1) return named[0]!;
    if (named.length > 1) return `有多个名为“${t}”的部门，请写出完整路径，如 上级部门/${t}`;
    return `部门“${t}”不存在`;
  };
}

const STATUS_OF: Record<string, number> = { 在职: 1, 离职: 2, '1': 1, '2': 2 };

export async function importEmployees(
  ctx: AppContext,
  caller: Caller,
  file: Buffer | undefined,
  contentType: string,
  mode: 'all' | 'valid',
  ip: string,
) {
  const org = await orgOf(ctx, caller);
  if (!Buffer.isBuffer(file) || file.length === 0) throw badRequest('请上传 .xlsx 或 .csv 文件');
  const rows = await readRows(file, contentType, {
    maxRows: MAX_IMPORT_ROWS + 1,
    maxColumns: MAX_IMPORT_COLUMNS,
  });
  const [header = [], ...data] = rows.filter((r) => r.some((c) => c !== ''));
  const index = new Map<string, number>();
  header.forEach((h, i) => {
    const col = COLUMNS.find((c) => c.header === h.trim() || c.key === h.trim());
    if (col) index.set(col.key, i);
  });
  for (const need of ['number', 'name', 'department'] as const) {
    if (!index.has(need)) {
      throw badRequest(`找不到“${COLUMNS.find((c) => c.key === need)!.header}”列，请使用导入模板`);
    }
  }
  if (data.length === 0) throw badRequest('文件中没有数据行');
  if (data.length > MAX_IMPORT_ROWS) throw badRequest(`一次最多导入${MAX_IMPORT_ROWS}行`);

  const resolve = departmentResolver(await departments(ctx, caller));
  const errors: RowError[] = [];
  const valid: { row: number; value: repo.NewEmployee }[] = [];
  const seen = new Map<string, number>();
  data.forEach((cells, i) => {
    const row = i + 2; // spreadsheet row number: header is row 1
    const input: Record<string, string> = {};
    for (const [key, at] of index)
      if (cells[at] !== undefined && cells[at] !== '') input[key] = cells[at]!.trim();
    const dep = resolve(input.department ?? '');
    const status = input.status === undefined ? 1 : STATUS_OF[input.status];
    const r = addEmployeeBody.safeParse({
      ...input,
      department_id: typeof dep === 'number' ? dep : 1,
      status: status ?? 1,
    });
    const before = errors.length;
    if (typeof dep === 'string') errors.push({ row, field: 'department', message: dep });
    if (status === undefined) errors.push({ row, field: 'status', message: '状态只能是 在职 或 离职' });
    if (!r.success) {
      for (const issue of r.error.issues) {
        errors.push({ row, field: String(issue.path[0] ?? ''), message: issueMessage(issue, input) });
      }
    }
    if (errors.length > before || !r.success) return;
    const dup = seen.get(r.data.number);
    if (dup) {
      errors.push({ row, field: 'number', message: `工号与第${dup}行重复` });
      return;
    }
    seen.set(r.data.number, row);
    valid.push({ row, value: r.data });
  });
  const taken = await repo.numbersTaken(
    ctx.db,
    org.org_id,
    valid.map((v) => v.value.number),
  );
  const fresh = valid.filter((v) => {
    if (!taken.has(v.value.number)) return true;
    errors.push({ row: v.row, field: 'number', message: '工号已存在' });
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
  if (fresh.length) {
    try {
      await create(ctx, caller, ip, {
        insert: async (tx) => {
          for (let i = 0; i < fresh.length; i += IMPORT_CHUNK) {
            if (i > 0) await new Promise((r) => setImmediate(r));
            await repo.insertEmployees(
              tx,
              org.org_id,
              fresh.slice(i, i + IMPORT_CHUNK).map((v) => v.value),
            );
          }
          return org.org_id;
        },
        audit: { action: 'attendance.employee.import', entity: 'organisation', targetUserId: null },
        after: { imported: fresh.length },
      });
    } catch (err) {
      if ((err as { code?: string })?.code !== '23505') throw err;
      throw new AppError(CODE.conflict, '导入期间有工号刚刚被占用，未导入任何数据，请核对后重新导入', {
        imported: 0,
        total_rows: data.length,
        errors,
      });
    }
  }
  return { imported: fresh.length, total_rows: data.length, errors };
}

export const EXPORT_COLUMNS: Column[] = [
  { header: '工号', key: 'number', width: 14 },
  { header: '姓名', key: 'name', width: 12 },
  { header: '部门', key: 'department_name', width: 18 },
  { header: '职位', key: 'position', width: 14 },
  { header: '手机号', key: 'phone', width: 16 },
  { header: '身份证号', key: 'id_card', width: 22 },
  { header: '卡号', key: 'badge_no', width: 14 },
  { header: '人脸ID', key: 'face_id', width: 16 },
  { header: '入职日期', key: 'hire_date', width: 12 },
  { header: '状态', key: 'status', width: 8 },
];

const EXPORT_PAGE = 1000;

/** Every employee the list's filter matches, a page at a time, as sheet rows. */
export async function* exportRows(
  ctx: AppContext,
  caller: Caller,
  q: { keywords?: string; department_id?: number; status?: number },
) {
  for (let page = 1; ; page++) {
    const r = await listEmployees(ctx, caller, { ...q, page, page_size: EXPORT_PAGE });
    if (r.list.length) yield r.list.map(sheetRow);
    if (r.list.length < EXPORT_PAGE) return;
  }
}

const sheetRow = (e: EmployeeRow) => ({
  ...e,
  hire_date: e.hire_date ?? '',
  status: EMPLOYEE_STATUS[e.status as 1 | 2] ?? String(e.status),
});
