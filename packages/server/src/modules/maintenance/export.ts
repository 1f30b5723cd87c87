import {
  AREAS,
  FAULT_SEVERITIES,
  RECORDS_EXPORT,
  RECORD_KINDS,
  RECORD_STATUS_LABELS,
  formatDateTime,
  recordFilter,
  type RecordFilter,
  type RecordRow,
} from '@se/core';
import { defineExport } from '../downloads/types.ts';
import { scopeOf } from '../access/users.ts';
import * as repo from './repo.ts';
import { visibleTeam } from './teams.ts';

const PAGE = 2000;

function summary(q: RecordFilter): string {
  const parts: string[] = [];
  if (q.status !== undefined) parts.push(`状态：${RECORD_STATUS_LABELS[q.status]}`);
  if (q.kind) parts.push(`类型：${RECORD_KINDS[q.kind]}`);
  if (q.equipment_type_id) parts.push(`设备类型ID：${q.equipment_type_id}`);
  if (q.fault_type_id) parts.push(`故障类型ID：${q.fault_type_id}`);
  if (q.toilet_id) parts.push(`厕所ID：${q.toilet_id}`);
  if (q.device_id) parts.push(`设备ID：${q.device_id}`);
  if (q.assignee_id) parts.push(`处理人ID：${q.assignee_id}`);
  if (q.team_id) parts.push(`班组ID：${q.team_id}`);
  if (q.overdue !== undefined) parts.push(q.overdue ? '超时' : '未超时');
  if (q.begin) parts.push(`开始：${q.begin}`);
  if (q.end) parts.push(`结束：${q.end}`);
  if (q.keywords) parts.push(`关键字：${q.keywords}`);
  return parts.join('；') || '全部';
}

const sheetRow = (r: RecordRow) => ({
  no: r.no,
  kind: RECORD_KINDS[r.kind as keyof typeof RECORD_KINDS] ?? r.kind,
  status: RECORD_STATUS_LABELS[r.status] ?? '',
  ser_num: r.ser_num,
  toilet_name: r.toilet_name,
  part_name: r.part_name,
  equipment_type_name: r.equipment_type_name,
  fault_type_name: r.fault_type_name,
  severity: r.fault_type_name ? FAULT_SEVERITIES[r.severity] : '',
  description: r.description,
  reporter_name: r.reporter_name,
  assignee_name: r.assignee_name,
  team_name: r.team_name,
  created_at: r.created_at,
  due_at: r.due_at,
  finished_at: r.finished_at ?? '',
  overdue: r.overdue ? '超时' : '',
  remedy: r.remedy,
  parts_replaced: r.parts_replaced,
  cost: r.cost,
  minutes_spent: r.minutes_spent,
});

/** 维修记录: the records /maintenance-records shows for the same filter, newest first. */
export const recordsExport = defineExport<RecordFilter>({
  name: RECORDS_EXPORT,
  label: '维修记录',
  access: AREAS.maintenance.permission,
  query: recordFilter,
  columns: () => [
    { header: '编号', key: 'no', width: 12 },
    { header: '类型', key: 'kind', width: 6 },
    { header: '状态', key: 'status', width: 8 },
    { header: '设备序列号', key: 'ser_num', width: 18 },
    { header: '厕所', key: 'toilet_name', width: 20 },
    { header: '部件', key: 'part_name', width: 12 },
    { header: '设备类型', key: 'equipment_type_name', width: 12 },
    { header: '故障', key: 'fault_type_name', width: 14 },
    { header: '严重程度', key: 'severity', width: 8 },
    { header: '描述', key: 'description', width: 40 },
    { header: '报修人', key: 'reporter_name', width: 12 },
    { header: '处理人', key: 'assignee_name', width: 12 },
    { header: '维修班组', key: 'team_name', width: 14 },
    { header: '报修时间', key: 'created_at', width: 20 },
    { header: '时限', key: 'due_at', width: 20 },
    { header: '完工时间', key: 'finished_at', width: 20 },
    { header: '超时', key: 'overdue', width: 6 },
    { header: '处理方法', key: 'remedy', width: 30 },
    { header: '更换部件', key: 'parts_replaced', width: 20 },
    { header: '费用', key: 'cost', width: 10 },
    { header: '用时（分钟）', key: 'minutes_spent', width: 10 },
  ],
  async count(ctx, caller, q) {
    const scope = await scopeOf(ctx, caller);
    if (q.team_id !== undefined) await visibleTeam(ctx, caller, q.team_id);
    return repo.countRecords(ctx.db, { ...q, scope, many: await repo.seesMany(ctx.db, scope) });
  },
  async *rows(ctx, caller, q) {
    const scope = await scopeOf(ctx, caller);
    const many = await repo.seesMany(ctx.db, scope);
    let after: number | null = null;
    for (;;) {
      const page = await repo.exportRecords(ctx.db, { ...q, scope, many }, after, PAGE);
      if (page.length === 0) return;
      yield page.map(sheetRow);
      if (page.length < PAGE) return;
      after = page[page.length - 1]!.id;
    }
  },
  summary,
  fileName: () => `维修记录-${formatDateTime(Date.now()).slice(0, 10)}`,
});
