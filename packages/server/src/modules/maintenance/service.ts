/**
 * Maintenance service (issue 18): the equipment/fault catalogues and the repair work orders.
 * Who sees a record: everyone who sees its device or its toilet (modules/access). A record on
 * a toilet part marks the part 故障 and sets the toilet's 维修中 flag while it is open;
 * acceptance sets the part back to 正常 and clears the flag unless another open record
 * still holds them.
 */
import {
  FAULT_SEVERITIES,
  JWB_WARNING,
  OPEN_STATUSES,
  PUBLIC_TOILET_ID,
  RECORD_ACTIONS,
  RECORD_KINDS,
  RECORD_PHOTO_LIMITS,
  RECORD_STATUS,
  RECORD_STATUS_LABELS,
  TOILET_PART_TYPES,
  TOILET_STATUS,
  recordNo,
  type AddEquipmentTypeBody,
  type AddFaultTypeBody,
  type AddRecordBody,
  type CompleteBody,
  type Prefill,
  type PrefillQuery,
  type RecordAction,
  type RecordDetail,
  type RecordsQuery,
} from '@se/core';
import crypto from 'node:crypto';
import type { z } from 'zod';
import type {
  equipmentTypesQuery,
  faultTypesQuery,
  updateEquipmentTypeBody,
  updateFaultTypeBody,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { pageWindow } from '../../db/sql.ts';
import type { Patchable } from '../../db/update.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { assertDeviceRight } from '../access/devices.ts';
import { assertToiletRight } from '../access/toilets.ts';
import { assertCanManage, scopeOf } from '../access/users.ts';
import { create, mutate } from '../audit/mutate.ts';
import { announce, deliver } from '../messages/service.ts';
import { insertStatusLog, switchFlag } from '../toilets/detail-repo.ts';
import { reencodeImage } from '../files/images.ts';
import { storage } from '../files/storage.ts';
import { shipmentsOf } from '../express/repo.ts';
import { findLiveToilet } from '../comments/repo.ts';
import * as repo from './repo.ts';
import { openSteps, plansUsing, recordChecklist } from './plans-repo.ts';
import { visibleTeam } from './teams.ts';

const page = <L>(
  r: { list: L; total: number; estimated?: boolean },
  q: { page: number; page_size: number },
) => ({
  ...r,
  page: q.page,
  page_size: q.page_size,
});

/** A record whose fault type gives no response time must be fixed within this many hours. */
const DEFAULT_RESPONSE_HOURS = 72;

// ---- catalogues ----

/**
 * The two catalogues, equipment types and fault types, share everything but their columns:
 * who sees and changes a row, what a delete checks, how adds and edits are audited. One
 * description per catalogue; the add/update paths below are written once for both.
 */
const CATALOGUES = {
  equipment_types: {
    label: '设备类型',
    entity: 'equipment_type',
    column: 'equipment_type_id',
    patchable: repo.EQUIPMENT_TYPES,
    find: repo.findEquipmentType,
  },
  fault_types: {
    label: '故障类型',
    entity: 'fault_type',
    column: 'fault_type_id',
    patchable: repo.FAULT_TYPES,
    find: repo.findFaultType,
  },
} as const;
type Table = keyof typeof CATALOGUES;
type CatalogueOf<T extends Table> = NonNullable<Awaited<ReturnType<(typeof CATALOGUES)[T]['find']>>>;

/**
 * A catalogue row the caller may change: seen (else 不存在), the console's own only for a
 * developer, an account's own for whoever manages that account.
 */
async function editableRow<T extends Table>(ctx: AppContext, caller: Caller, table: T, id: number) {
  const label = CATALOGUES[table].label;
  const row = (await CATALOGUES[table].find(ctx.db, id)) as CatalogueOf<T> | undefined;
  const scope = await scopeOf(ctx, caller);
  if (!row || row.is_delete || !(await repo.catalogueVisible(ctx.db, table, row.id, scope)))
    throw notFound(`${label}不存在`);
  if (row.user_id === null) {
    if (scope !== '/') throw forbidden(`系统内置的${label}只有开发者可以修改`);
  } else {
    await assertCanManage(ctx, caller, row.user_id).catch(() => {
      throw forbidden(`只有添加该${label}的账号及其上级可以修改`);
    });
  }
  return row;
}

/** Refuses deleting a type that live records (or plans) use, naming how many. */
async function assertUnused(ctx: AppContext, table: Table, id: number) {
  const { label, column } = CATALOGUES[table];
  const n = await repo.recordsUsing(ctx.db, column, id);
  if (n > 0) throw conflict(`该${label}被 ${n} 条维修记录使用，不能删除`);
  const p = table === 'equipment_types' ? await plansUsing(ctx.db, id) : 0;
  if (p > 0) throw conflict(`该${label}被 ${p} 个保养计划使用，不能删除`);
}

/** Adds a row of the caller's own to a catalogue, audited. */
async function addCatalogueRow(
  ctx: AppContext,
  caller: Caller,
  table: Table,
  b: AddEquipmentTypeBody | AddFaultTypeBody,
  ip: string,
) {
  const id = await create(ctx, caller, ip, {
    insert: (tx) => repo.insertCatalogueRow(tx, table, { ...b, user_id: caller.id }),
    audit: {
      action: `maintenance.${CATALOGUES[table].entity}.add`,
      entity: CATALOGUES[table].entity,
      targetUserId: caller.id,
    },
    after: b,
  });
  return { id };
}

/**
 * Edits or deletes (`is_delete`) a catalogue row the caller may change; `check` refuses an
 * edit first (a fault type moved to an equipment type the caller does not see).
 */
async function updateCatalogueRow<T extends Table>(
  ctx: AppContext,
  caller: Caller,
  table: T,
  b: { id: number; is_delete?: boolean },
  ip: string,
  check?: (row: CatalogueOf<T>) => Promise<void>,
) {
  const row = await editableRow(ctx, caller, table, b.id);
  const { id, ...patch } = b;
  await check?.(row);
  if (patch.is_delete) await assertUnused(ctx, table, id);
  const { entity, patchable } = CATALOGUES[table];
  await mutate(ctx, caller, ip, {
    row,
    patch,
    table: patchable as Patchable<string>,
    audit: {
      action: `maintenance.${entity}.${patch.is_delete ? 'delete' : 'update'}`,
      entity,
      entityId: id,
      targetUserId: row.user_id,
    },
  });
  return { id };
}

export async function listEquipmentTypes(
  ctx: AppContext,
  caller: Caller,
  q: z.output<typeof equipmentTypesQuery>,
) {
  const scope = await scopeOf(ctx, caller);
  return page(
    await repo.listEquipmentTypes(ctx.db, {
      scope,
      keywords: q.keywords || undefined,
      category: q.category,
      ...pageWindow(q),
    }),
    q,
  );
}

export const addEquipmentType = (ctx: AppContext, caller: Caller, b: AddEquipmentTypeBody, ip: string) =>
  addCatalogueRow(ctx, caller, 'equipment_types', b, ip);

export const updateEquipmentType = (
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof updateEquipmentTypeBody>,
  ip: string,
) => updateCatalogueRow(ctx, caller, 'equipment_types', b, ip);

export async function listFaultTypes(ctx: AppContext, caller: Caller, q: z.output<typeof faultTypesQuery>) {
  const scope = await scopeOf(ctx, caller);
  return page(
    await repo.listFaultTypes(ctx.db, {
      scope,
      keywords: q.keywords || undefined,
      equipment_type_id: q.equipment_type_id,
      ...pageWindow(q),
    }),
    q,
  );
}

async function assertEquipmentTypeSeen(ctx: AppContext, caller: Caller, id: number) {
  const scope = await scopeOf(ctx, caller);
  if (!(await repo.catalogueVisible(ctx.db, 'equipment_types', id, scope))) throw notFound('设备类型不存在');
}

export async function addFaultType(ctx: AppContext, caller: Caller, b: AddFaultTypeBody, ip: string) {
  await assertEquipmentTypeSeen(ctx, caller, b.equipment_type_id);
  return addCatalogueRow(ctx, caller, 'fault_types', b, ip);
}

export const updateFaultType = (
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof updateFaultTypeBody>,
  ip: string,
) =>
  updateCatalogueRow(ctx, caller, 'fault_types', b, ip, async (row) => {
    if (b.equipment_type_id !== undefined && b.equipment_type_id !== row.equipment_type_id)
      await assertEquipmentTypeSeen(ctx, caller, b.equipment_type_id);
  });

// ---- what a record is about ----

interface Subject {
  device_id: number | null;
  ser_num: string;
  device_desc: string;
  device_kind: string | null;
  toilet_id: number | null;
  toilet_name: string;
  part_id: number | null;
  part_name: string;
  part_type: number | null;
  alarm_id: number | null;
  /** The fault an alarm suggests (a fault type's code). */
  fault_code: string | null;
  alarm_text: string;
}

/** The dispenser warning bit an alarm carries → the seeded fault type's code. */
const WARNING_FAULTS: [number, string][] = [
  [JWB_WARNING.lackOfLiquid, 'lack_liquid'],
  [JWB_WARNING.lackOfWater, 'lack_water'],
  [JWB_WARNING.atomizer, 'atomizer'],
  [JWB_WARNING.fan, 'fan'],
];

/**
 * Resolves what a new record is about from an alarm, a serial number, a device id, a part
 * or a toilet, checking that the caller sees it (an unseen one answers as missing).
 */
async function subjectOf(
  ctx: AppContext,
  caller: Caller,
  s: Pick<PrefillQuery, 'ser_num' | 'alarm_id' | 'part_id' | 'toilet_id'> & { device_id?: number },
): Promise<Subject> {
  const out: Subject = {
    device_id: null,
    ser_num: '',
    device_desc: '',
    device_kind: null,
    toilet_id: null,
    toilet_name: '',
    part_id: null,
    part_name: '',
    part_type: null,
    alarm_id: null,
    fault_code: null,
    alarm_text: '',
  };
  let deviceId = s.device_id ?? null;
  if (s.alarm_id !== undefined) {
    const a = await repo.alarmSubject(ctx.db, s.alarm_id);
    if (!a) throw notFound('告警不存在');
    await assertDeviceRight(ctx, caller, 'device', a.device_id, 'read', { what: '报修' }).catch(() => {
      throw notFound('告警不存在');
    });
    deviceId = a.device_id;
    out.alarm_id = a.id;
    out.alarm_text = a.message;
    if (a.type === 'offline') out.fault_code = 'offline';
    else out.fault_code = WARNING_FAULTS.find(([bit]) => (a.warning & bit) !== 0)?.[1] ?? null;
  } else if (s.ser_num) {
    const d = await repo.deviceBySerial(ctx.db, s.ser_num);
    if (!d) throw notFound(`序列号 ${s.ser_num} 的设备不存在`);
    await assertDeviceRight(ctx, caller, 'device', d.id, 'read', { what: '报修' }).catch(() => {
      throw notFound(`序列号 ${s.ser_num} 的设备不存在`);
    });
    deviceId = d.id;
  }
  if (deviceId !== null) {
    if (s.alarm_id === undefined && !s.ser_num)
      await assertDeviceRight(ctx, caller, 'device', deviceId, 'read', { what: '报修' });
    const d = await repo.deviceSubject(ctx.db, deviceId);
    if (!d) throw notFound('设备不存在');
    Object.assign(out, {
      device_id: d.id,
      ser_num: d.ser_num,
      device_desc: d.desc,
      device_kind: d.kind,
      toilet_id: d.toilet_id,
      toilet_name: d.toilet_name,
    });
    return out;
  }
  if (s.part_id !== undefined) {
    const p = await repo.partSubject(ctx.db, s.part_id);
    if (!p) throw notFound('部件不存在');
    await assertToiletRight(ctx, caller, p.toilet_id, 'read', { what: '报修' }).catch(() => {
      throw notFound('部件不存在');
    });
    return {
      ...out,
      toilet_id: p.toilet_id,
      toilet_name: p.toilet_name,
      part_id: p.id,
      part_name: p.name || TOILET_PART_TYPES[p.type] || '部件',
      part_type: p.type,
    };
  }
  if (s.toilet_id !== undefined) {
    await assertToiletRight(ctx, caller, s.toilet_id, 'read', { what: '报修' });
    const t = await repo.toiletName(ctx.db, s.toilet_id);
    return { ...out, toilet_id: s.toilet_id, toilet_name: t?.name ?? '' };
  }
  throw badRequest('请扫码或输入设备序列号，或选择厕所部件');
}

/** The console's equipment type for what the record is about. */
function builtinCode(s: Subject) {
  if (s.device_kind) return s.device_kind;
  if (s.part_type !== null) return `part${s.part_type}`;
  return null;
}

/**
 * The internal id of the toilet whose 评价 QR code holds `publicId` (扫码). A text that is not
 * a public id, an unknown or deleted toilet, answers as a toilet the caller does not see.
 */
async function toiletOfPublicId(ctx: AppContext, publicId: string) {
  const t = PUBLIC_TOILET_ID.test(publicId) ? await findLiveToilet(ctx.db, publicId) : undefined;
  if (!t) throw notFound('厕所不存在');
  return t.id;
}

export async function prefill(ctx: AppContext, caller: Caller, q: PrefillQuery): Promise<Prefill> {
  const { toilet_public_id: publicId, ...named } = q;
  const s = await subjectOf(
    ctx,
    caller,
    publicId === undefined ? named : { toilet_id: await toiletOfPublicId(ctx, publicId) },
  );
  const code = builtinCode(s);
  const equipmentTypeId = code ? await repo.builtinEquipmentType(ctx.db, code) : null;
  const faultTypeId =
    equipmentTypeId !== null && s.fault_code
      ? await repo.faultTypeByCode(ctx.db, equipmentTypeId, s.fault_code)
      : null;
  const where = s.ser_num ? `设备 ${s.ser_num}` : `${s.toilet_name}${s.part_name ? ` ${s.part_name}` : ''}`;
  return {
    device_id: s.device_id,
    ser_num: s.ser_num,
    device_desc: s.device_desc,
    toilet_id: s.toilet_id,
    toilet_name: s.toilet_name,
    part_id: s.part_id,
    part_name: s.part_name,
    alarm_id: s.alarm_id,
    equipment_type_id: equipmentTypeId,
    fault_type_id: faultTypeId,
    description: s.alarm_id ? `${where} 告警：${s.alarm_text || '设备告警'}` : '',
  };
}

// ---- records ----

export async function listRecords(ctx: AppContext, caller: Caller, q: RecordsQuery) {
  const scope = await scopeOf(ctx, caller);
  if (q.team_id !== undefined) await visibleTeam(ctx, caller, q.team_id);
  const { page: p, page_size, keywords, ...filters } = q;
  return page(
    await repo.listRecords(ctx.db, {
      ...filters,
      scope,
      many: await repo.seesMany(ctx.db, scope),
      keywords: keywords || undefined,
      ...pageWindow({ page: p, page_size }),
      json: true,
    }),
    q,
  );
}

/** A record the caller sees (through its device or toilet), as stored. */
export async function visibleRecord(ctx: AppContext, caller: Caller, id: number) {
  const scope = await scopeOf(ctx, caller);
  const r = await repo.findRecord(ctx.db, id);
  if (!r || r.is_delete || !(await repo.recordVisible(ctx.db, id, scope))) throw notFound('维修记录不存在');
  return r;
}

type Stored = NonNullable<Awaited<ReturnType<typeof repo.findRecord>>>;

/** What the caller may do to a record now (the steps' own checks, answered ahead for the screen). */
function abilities(caller: Caller, r: Stored): RecordDetail['can'] {
  const open = OPEN_STATUSES.includes(r.status);
  return {
    assign: r.status === RECORD_STATUS.pending || r.status === RECORD_STATUS.working,
    complete: r.status === RECORD_STATUS.working,
    accept: r.status === RECORD_STATUS.checking && r.assignee_id !== caller.id,
    cancel: open,
    check: r.status === RECORD_STATUS.working,
  };
}

export async function detail(ctx: AppContext, caller: Caller, id: number): Promise<RecordDetail> {
  const r = await visibleRecord(ctx, caller, id);
  const [record, events, shipments, plan] = await Promise.all([
    repo.recordRow(ctx.db, id),
    repo.listEvents(ctx.db, id),
    shipmentsOf(ctx.db, id),
    recordChecklist(ctx.db, id),
  ]);
  const can = abilities(caller, r);
  return {
    record: record!,
    events,
    shipments,
    ...plan,
    can: { ...can, check: can.check && plan.checklist.length > 0 },
  };
}

/** Refuses (as missing) a record the caller does not see: a courier order's link. */
export async function assertRecordSeen(ctx: AppContext, caller: Caller, id: number) {
  await visibleRecord(ctx, caller, id);
}

async function assertAssignable(
  ctx: AppContext,
  userId: number,
  toiletId: number | null,
  deviceId: number | null,
) {
  if (!(await repo.accountSees(ctx.db, userId, toiletId, deviceId)))
    throw badRequest('指派的人员不存在或看不到该设备/厕所');
}

/** Inbox messages about a record to its reporter and assignee (not to whoever acted). */
async function notify(
  tx: Queryable,
  caller: Caller,
  r: { id: number; reporter_id: number; assignee_id: number | null },
  title: string,
  content: string,
) {
  const to = [...new Set([r.reporter_id, r.assignee_id])].filter(
    (u): u is number => u !== null && u !== caller.id,
  );
  return deliver(
    tx,
    to.map((user_id) => ({ user_id, kind: 'system' as const, title, content })),
  );
}

/**
 * Whether a record holds its toilet's 维修中 flag while open: a repair of the toilet, of a
 * device standing in it (the dispenser out of liquid) or of a part, and any order on a part
 * (which also marks the part 故障). A planned upkeep of a device or of the toilet does not.
 */
const holdsRepairFlag = (r: { kind: string; toilet_id: number | null; part_id: number | null }) =>
  r.toilet_id !== null && (r.part_id !== null || r.kind === 'repair');

/** Sets (on) or clears the toilet's 维修中 flag with a log line naming the record. */
async function repairFlag(tx: Queryable, caller: Caller, toiletId: number, recordId: number, on: boolean) {
  const r = await switchFlag(tx, toiletId, TOILET_STATUS.repair, on);
  if (r && r.before !== r.after)
    await insertStatusLog(tx, [
      {
        toilet_id: toiletId,
        flag: TOILET_STATUS.repair,
        on,
        note: `维修单 ${recordNo(recordId)}${on ? '' : ' 已结束'}`,
        user_id: caller.id,
      },
    ]);
}

export async function addRecord(ctx: AppContext, caller: Caller, b: AddRecordBody, ip: string) {
  const s = await subjectOf(ctx, caller, b);
  const scope = await scopeOf(ctx, caller);
  if (!(await repo.catalogueVisible(ctx.db, 'equipment_types', b.equipment_type_id, scope)))
    throw notFound('设备类型不存在');
  let hours = DEFAULT_RESPONSE_HOURS;
  let faultName = '';
  if (b.fault_type_id !== undefined) {
    const f = await repo.findFaultType(ctx.db, b.fault_type_id);
    if (!f || !(await repo.catalogueVisible(ctx.db, 'fault_types', f.id, scope)))
      throw notFound('故障类型不存在');
    if (f.equipment_type_id !== b.equipment_type_id) throw badRequest('故障类型不属于所选设备类型');
    hours = f.response_hours;
    faultName = `${f.name}（${FAULT_SEVERITIES[f.severity] ?? ''}）`;
  }
  if (b.assignee_id !== undefined) await assertAssignable(ctx, b.assignee_id, s.toilet_id, s.device_id);
  const status = b.assignee_id !== undefined ? RECORD_STATUS.working : RECORD_STATUS.pending;
  const events: Awaited<ReturnType<typeof deliver>> = [];
  const id = await create(ctx, caller, ip, {
    insert: async (tx) => {
      const id = await repo.insertRecord(tx, {
        kind: b.kind,
        status,
        device_id: s.device_id,
        ser_num: s.ser_num,
        toilet_id: s.toilet_id,
        part_id: s.part_id,
        alarm_id: s.alarm_id,
        equipment_type_id: b.equipment_type_id,
        fault_type_id: b.fault_type_id ?? null,
        description: b.description,
        reporter_id: caller.id,
        assignee_id: b.assignee_id ?? null,
        response_hours: hours,
      });
      await repo.insertEvent(tx, {
        record_id: id,
        action: 'report',
        status: RECORD_STATUS.pending,
        note: b.description,
        user_id: caller.id,
      });
      if (b.assignee_id !== undefined) {
        await repo.insertEvent(tx, { record_id: id, action: 'assign', status, note: '', user_id: caller.id });
        events.push(
          ...(await notify(
            tx,
            caller,
            { id, reporter_id: caller.id, assignee_id: b.assignee_id },
            `维修单 ${recordNo(id)} 已派给你`,
            `${s.ser_num ? `设备 ${s.ser_num}` : `${s.toilet_name} ${s.part_name}`}：${faultName}${b.description}`,
          )),
        );
      }
      if (s.part_id !== null && s.toilet_id !== null) await repo.setPartState(tx, s.part_id, 1);
      if (holdsRepairFlag({ kind: b.kind, ...s })) await repairFlag(tx, caller, s.toilet_id!, id, true);
      return id;
    },
    audit: { action: 'maintenance.record.add', entity: 'maintenance_record', targetUserId: null },
    after: { ...b, kind: RECORD_KINDS[b.kind] },
  });
  repo.statsChanged();
  announce(ctx, events);
  return { id, no: recordNo(id) };
}

const STEP_FROM: Record<Exclude<RecordAction, 'report' | 'plan'>, readonly number[]> = {
  assign: [RECORD_STATUS.pending, RECORD_STATUS.working],
  complete: [RECORD_STATUS.working],
  accept: [RECORD_STATUS.checking],
  reject: [RECORD_STATUS.checking],
  cancel: OPEN_STATUSES,
};

/**
 * One step of the flow on a visible record: checks the status it starts from, writes the
 * change only if the record is still there (a concurrent step loses with 状态已变化), logs the
 * history line, releases the part and the toilet flag when the record closes, and tells the
 * reporter and the assignee.
 */
async function step(
  ctx: AppContext,
  caller: Caller,
  ip: string,
  id: number,
  action: Exclude<RecordAction, 'report' | 'plan'>,
  set: repo.StepSet,
  note: string,
  check?: (r: Stored) => Promise<void> | void,
) {
  const r = await visibleRecord(ctx, caller, id);
  if (!STEP_FROM[action].includes(r.status))
    throw conflict(`维修记录当前为「${RECORD_STATUS_LABELS[r.status]}」，不能${RECORD_ACTIONS[action]}`);
  await check?.(r);
  const events: Awaited<ReturnType<typeof deliver>> = [];
  const closes = set.status === RECORD_STATUS.done || set.status === RECORD_STATUS.cancelled;
  await mutate(ctx, caller, ip, {
    row: { ...r, note: '' },
    patch: { ...set, note },
    always: true,
    write: async (tx) => {
      if (!(await repo.stepRecord(tx, id, r.status, set))) throw conflict('维修记录状态已变化，请刷新后重试');
      await repo.insertEvent(tx, { record_id: id, action, status: set.status, note, user_id: caller.id });
      if (closes && holdsRepairFlag(r)) {
        if (
          r.part_id !== null &&
          set.status === RECORD_STATUS.done &&
          (await repo.otherOpenOnPart(tx, id, r.part_id)) === 0
        )
          await repo.setPartState(tx, r.part_id, 0);
        if ((await repo.otherOpenInToilet(tx, id, r.toilet_id!)) === 0)
          await repairFlag(tx, caller, r.toilet_id!, id, false);
      }
      const assignee = set.assignee_id ?? r.assignee_id;
      const title =
        action === 'assign'
          ? `维修单 ${recordNo(id)} 已派给你`
          : `维修单 ${recordNo(id)} ${RECORD_ACTIONS[action]}：${RECORD_STATUS_LABELS[set.status]}`;
      events.push(
        ...(await notify(
          tx,
          caller,
          { id, reporter_id: r.reporter_id, assignee_id: assignee },
          title,
          note || title,
        )),
      );
    },
    audit: {
      action: `maintenance.record.${action}`,
      entity: 'maintenance_record',
      entityId: id,
      targetUserId: null,
    },
  });
  repo.statsChanged();
  announce(ctx, events);
  return detail(ctx, caller, id);
}

export function assign(
  ctx: AppContext,
  caller: Caller,
  b: { id: number; assignee_id: number; note: string },
  ip: string,
) {
  return step(
    ctx,
    caller,
    ip,
    b.id,
    'assign',
    { status: RECORD_STATUS.working, assignee_id: b.assignee_id },
    b.note,
    (r) => assertAssignable(ctx, b.assignee_id, r.toilet_id, r.device_id),
  );
}

export function complete(ctx: AppContext, caller: Caller, b: CompleteBody, ip: string) {
  return step(
    ctx,
    caller,
    ip,
    b.id,
    'complete',
    {
      status: RECORD_STATUS.checking,
      remedy: b.remedy,
      parts_replaced: b.parts_replaced,
      cost: b.cost,
      minutes_spent: b.minutes_spent,
      finished: 'set',
    },
    b.note,
    async () => {
      const left = await openSteps(ctx.db, b.id);
      if (left > 0) throw badRequest(`保养检查项还有 ${left} 项未完成`);
    },
  );
}

export function accept(ctx: AppContext, caller: Caller, b: { id: number; note: string }, ip: string) {
  return step(ctx, caller, ip, b.id, 'accept', { status: RECORD_STATUS.done }, b.note, (r) => {
    if (r.assignee_id === caller.id) throw forbidden('不能验收自己完成的维修，请由其他人验收');
  });
}

export function reject(ctx: AppContext, caller: Caller, b: { id: number; note: string }, ip: string) {
  if (!b.note) throw badRequest('请填写退回原因');
  return step(
    ctx,
    caller,
    ip,
    b.id,
    'reject',
    { status: RECORD_STATUS.working, finished: 'clear' },
    b.note,
    (r) => {
      if (r.assignee_id === caller.id) throw forbidden('不能验收自己完成的维修，请由其他人验收');
    },
  );
}

export function cancel(ctx: AppContext, caller: Caller, b: { id: number; note: string }, ip: string) {
  if (!b.note) throw badRequest('请填写取消原因');
  return step(ctx, caller, ip, b.id, 'cancel', { status: RECORD_STATUS.cancelled }, b.note);
}

export async function assignees(ctx: AppContext, caller: Caller, q: { id: number; keywords?: string }) {
  const r = await visibleRecord(ctx, caller, q.id);
  return repo.listAssignees(ctx.db, r.toilet_id, r.device_id, q.keywords || undefined);
}

export async function stats(ctx: AppContext, caller: Caller) {
  return repo.stats(ctx.db, await scopeOf(ctx, caller));
}

// ---- photos ----

/** The longest side a stored photo keeps (a phone photo is scaled down to it). */
const PHOTO_MAX_SIDE = 2048;

/**
 * Adds a photo to an open record the caller sees: checked by its bytes and re-encoded
 * (modules/files), at most RECORD_PHOTO_LIMITS.count per record, stored under the record.
 */
export async function addPhoto(ctx: AppContext, caller: Caller, id: number, body: unknown) {
  const r = await visibleRecord(ctx, caller, id);
  if (!OPEN_STATUSES.includes(r.status)) throw conflict('维修记录已结束，不能再添加照片');
  if (!Buffer.isBuffer(body)) throw badRequest('请上传图片');
  const img = await reencodeImage(body, { maxBytes: RECORD_PHOTO_LIMITS.bytes, maxSide: PHOTO_MAX_SIDE });
  const key = `maintenance/${id}/${crypto.randomUUID()}.${img.format}`;
  const store = storage(ctx);
  await store.put(key, img.buffer, { contentType: img.mime });
  if (!(await repo.addPhoto(ctx.db, id, key, RECORD_PHOTO_LIMITS.count))) {
    await store.remove(key);
    throw badRequest(`每条维修记录最多 ${RECORD_PHOTO_LIMITS.count} 张照片`);
  }
  const row = await repo.recordRow(ctx.db, id);
  return { photo_count: row!.photo_count };
}

/** The storage key of a photo of a record the caller sees. */
export async function photoKey(ctx: AppContext, caller: Caller, id: number, n: number) {
  await visibleRecord(ctx, caller, id);
  const key = await repo.photoKey(ctx.db, id, n);
  if (!key) throw notFound('照片不存在');
  return key;
}
