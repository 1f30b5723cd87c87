/**
 * Planned maintenance (计划保养, issue 18). A plan covers one device, one toilet, or every
 * device of an equipment type its creator sees, and opens a work order of kind 保养 when due:
 * every N days, or after N hours of operation, N uses or N ml of liquid its devices reported
 * (the hourly telemetry rollups). The order goes to the plan's assignee (or its team's lead,
 * every member told: teams.ts) with the plan's checklist, ticked off on the phone; it cannot be completed with steps left.
 *
 * Who sees a plan: those who see its device or toilet (modules/access), a whole-type plan its
 * creator and the accounts above. Who changes it: its creator and the accounts above.
 */
import {
  PLAN_TRIGGERS,
  RECORD_STATUS,
  TRIGGER_KINDS,
  recordNo,
  type AddPlanBody,
  type PlanTrigger,
  type PlansQuery,
  type UpdatePlanBody,
  type checkStepBody,
  type planAssigneesQuery,
} from '@se/core';
import type { z } from 'zod';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { assertDeviceRight } from '../access/devices.ts';
import { assertToiletRight } from '../access/toilets.ts';
import { assertCanManage, scopeOf } from '../access/users.ts';
import { create, mutate } from '../audit/mutate.ts';
import { announce, deliver } from '../messages/service.ts';
import * as repo from './repo.ts';
import * as plans from './plans-repo.ts';
import { detail, visibleRecord } from './service.ts';
import { visibleTeam } from './teams.ts';

const MISSING = '保养计划不存在';

/** What a plan covers, resolved and checked against the caller. */
interface Coverage {
  device_id: number | null;
  device_kind: string | null;
  toilet_id: number | null;
}

/** Every device kind a whole-type plan may cover (every kind reports hours). */
const DEVICE_KINDS_OF_PLANS = TRIGGER_KINDS.hours;

async function coverageOf(
  ctx: AppContext,
  caller: Caller,
  b: Pick<AddPlanBody, 'device_id' | 'ser_num' | 'toilet_id'>,
): Promise<Coverage> {
  let deviceId = b.device_id ?? null;
  if (b.ser_num) {
    const d = await repo.deviceBySerial(ctx.db, b.ser_num);
    if (!d) throw notFound(`序列号 ${b.ser_num} 的设备不存在`);
    deviceId = d.id;
  }
  if (deviceId !== null) {
    await assertDeviceRight(ctx, caller, 'device', deviceId, 'operate', { what: '制定保养计划' }).catch(
      (e: { code?: number }) => {
        throw b.ser_num && e.code === 404 ? notFound(`序列号 ${b.ser_num} 的设备不存在`) : e;
      },
    );
    const d = await repo.deviceSubject(ctx.db, deviceId);
    if (!d) throw notFound('设备不存在');
    return { device_id: d.id, device_kind: d.kind, toilet_id: null };
  }
  if (b.toilet_id !== undefined) {
    await assertToiletRight(ctx, caller, b.toilet_id, 'operate', { what: '制定保养计划' });
    return { device_id: null, device_kind: null, toilet_id: b.toilet_id };
  }
  return { device_id: null, device_kind: null, toilet_id: null };
}

/** Refuses a trigger the covered devices have no data for, and an interval past its maximum. */
function checkTrigger(
  trigger: PlanTrigger,
  every: number,
  c: Coverage,
  type: { code: string; category: string },
) {
  const t = PLAN_TRIGGERS[trigger];
  if (every > t.max) throw badRequest(`间隔不能超过${t.max}${t.unit}`);
  const whole = c.device_id === null && c.toilet_id === null;
  if (whole && !(type.category === 'device' && DEVICE_KINDS_OF_PLANS.includes(type.code)))
    throw badRequest('按设备类型制定的计划只适用于设备类的类型，厕所部件请按厕所制定');
  if (trigger === 'days' || c.toilet_id !== null) return;
  const kind = c.device_kind ?? type.code;
  if (!TRIGGER_KINDS[trigger].includes(kind))
    throw badRequest(`该设备不上报${t.unit}数据，不能${t.label}保养`);
}

/** The assignee must see what the plan covers (a whole-type plan: be the caller or below it). */
async function checkAssignee(
  ctx: AppContext,
  caller: Caller,
  assigneeId: number,
  c: Coverage,
  message = '指派的人员不存在或看不到该设备/厕所',
) {
  const refused = badRequest(message);
  if (c.device_id === null && c.toilet_id === null) {
    await assertCanManage(ctx, caller, assigneeId).catch(() => {
      throw refused;
    });
    return;
  }
  if (!(await repo.accountSees(ctx.db, assigneeId, c.toilet_id, c.device_id))) throw refused;
}

/** A team the caller sees whose lead (who gets the orders) may be assigned what the plan covers. */
async function checkTeam(ctx: AppContext, caller: Caller, teamId: number, c: Coverage) {
  const team = await visibleTeam(ctx, caller, teamId);
  await checkAssignee(ctx, caller, team.lead_id, c, '班组负责人看不到该设备/厕所');
}

const BOTH = '指派人员和维修班组只能选一个';

/** The accounts a plan over the given device, toilet or whole type may be assigned to. */
export async function planAssignees(ctx: AppContext, caller: Caller, q: z.output<typeof planAssigneesQuery>) {
  const c = await coverageOf(ctx, caller, q);
  const keywords = q.keywords || undefined;
  if (c.device_id === null && c.toilet_id === null)
    return plans.accountsUnder(ctx.db, await scopeOf(ctx, caller), keywords);
  return repo.listAssignees(ctx.db, c.toilet_id, c.device_id, keywords);
}

export async function listPlans(ctx: AppContext, caller: Caller, q: PlansQuery) {
  const scope = await scopeOf(ctx, caller);
  const { page, page_size, keywords, ...filters } = q;
  const r = await plans.listPlans(ctx.db, {
    ...filters,
    scope,
    many: await repo.seesMany(ctx.db, scope),
    keywords: keywords || undefined,
    ...pageWindow({ page, page_size }),
  });
  return { ...r, page, page_size };
}

export async function addPlan(ctx: AppContext, caller: Caller, b: AddPlanBody, ip: string) {
  const c = await coverageOf(ctx, caller, b);
  const scope = await scopeOf(ctx, caller);
  const type = await repo.findEquipmentType(ctx.db, b.equipment_type_id);
  if (!type || !(await repo.catalogueVisible(ctx.db, 'equipment_types', type.id, scope)))
    throw notFound('设备类型不存在');
  checkTrigger(b.trigger, b.every, c, type);
  if (b.assignee_id !== undefined && b.team_id !== undefined) throw badRequest(BOTH);
  if (b.assignee_id !== undefined) await checkAssignee(ctx, caller, b.assignee_id, c);
  if (b.team_id !== undefined) await checkTeam(ctx, caller, b.team_id, c);
  const id = await create(ctx, caller, ip, {
    insert: (tx) =>
      plans.insertPlan(tx, {
        user_id: caller.id,
        name: b.name,
        equipment_type_id: b.equipment_type_id,
        device_id: c.device_id,
        toilet_id: c.toilet_id,
        trigger: b.trigger,
        every: b.every,
        starts_at: b.starts_at ?? null,
        response_hours: b.response_hours,
        assignee_id: b.assignee_id ?? null,
        team_id: b.team_id ?? null,
        checklist: b.checklist,
        enabled: b.enabled,
        note: b.note,
      }),
    audit: { action: 'maintenance.plan.add', entity: 'maintenance_plan', targetUserId: caller.id },
    after: b,
  });
  return { id };
}

/** A plan the caller sees (else 不存在) and may change (its creator or above, else 403). */
async function editablePlan(ctx: AppContext, caller: Caller, id: number) {
  const scope = await scopeOf(ctx, caller);
  const p = await plans.findPlan(ctx.db, id);
  if (!p || p.is_delete || !(await plans.planVisible(ctx.db, id, scope))) throw notFound(MISSING);
  await assertCanManage(ctx, caller, p.user_id).catch(() => {
    throw forbidden('只有创建该计划的账号及其上级可以修改');
  });
  return p;
}

export async function updatePlan(ctx: AppContext, caller: Caller, b: UpdatePlanBody, ip: string) {
  const p = await editablePlan(ctx, caller, b.id);
  const { id, ...patch } = b;
  if (patch.assignee_id != null && patch.team_id != null) throw badRequest(BOTH);
  // A person or a team: setting one clears the other.
  if (patch.assignee_id != null) patch.team_id = null;
  if (patch.team_id != null) patch.assignee_id = null;
  if (!patch.is_delete) {
    const c: Coverage = {
      device_id: p.device_id,
      toilet_id: p.toilet_id,
      device_kind:
        p.device_id === null ? null : ((await repo.deviceSubject(ctx.db, p.device_id))?.kind ?? null),
    };
    if (patch.trigger !== undefined || patch.every !== undefined) {
      const type = await repo.findEquipmentType(ctx.db, p.equipment_type_id);
      checkTrigger(patch.trigger ?? (p.trigger as PlanTrigger), patch.every ?? p.every, c, type!);
    }
    if (patch.assignee_id != null && patch.assignee_id !== p.assignee_id)
      await checkAssignee(ctx, caller, patch.assignee_id, c);
    if (patch.team_id != null && patch.team_id !== p.team_id) await checkTeam(ctx, caller, patch.team_id, c);
  }
  await mutate(ctx, caller, ip, {
    row: p,
    patch,
    table: plans.PLANS,
    audit: {
      action: `maintenance.plan.${patch.is_delete ? 'delete' : 'update'}`,
      entity: 'maintenance_plan',
      entityId: id,
      targetUserId: p.user_id,
    },
  });
  return { id };
}

/** Ticks or unticks one checklist step of a 保养 order in progress the caller sees. */
export async function checkStep(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof checkStepBody>,
  ip: string,
) {
  const r = await visibleRecord(ctx, caller, b.id);
  const { checklist } = await plans.recordChecklist(ctx.db, b.id);
  const item = checklist[b.n];
  if (!item) throw notFound('检查项不存在');
  if (r.status !== RECORD_STATUS.working) throw conflict('只有处理中的保养单可以勾选检查项');
  await mutate(ctx, caller, ip, {
    row: { step: item.step, done: item.done },
    patch: { done: b.done },
    write: async (tx) => {
      if (!(await plans.tickStep(tx, b.id, b.n, b.done, caller.userName)))
        throw conflict('保养单状态已变化，请刷新后重试');
    },
    audit: {
      action: 'maintenance.record.check',
      entity: 'maintenance_record',
      entityId: b.id,
      targetUserId: null,
    },
  });
  return detail(ctx, caller, b.id);
}

/** Orders a sweep opens at most (the rest wait for the next minute). */
const SWEEP_LIMIT = 200;

/**
 * The scheduler's job: opens a 保养 order for every due target. Each one is claimed in its
 * own transaction with the order (plans.claimTarget), so two server copies running the sweep
 * together open it once; a failure leaves the target due for the next run.
 */
export async function planSweep(ctx: AppContext) {
  const due = await plans.dueTargets(ctx.db, SWEEP_LIMIT);
  const opened: number[] = [];
  for (const t of due) {
    const events: Awaited<ReturnType<typeof deliver>> = [];
    const id = await ctx.db
      .transaction(async (tx) => {
        if (!(await plans.claimTarget(tx, t))) return null;
        const status = t.assignee_id === null ? RECORD_STATUS.pending : RECORD_STATUS.working;
        const unit = PLAN_TRIGGERS[t.trigger as PlanTrigger];
        const why =
          t.trigger === 'days'
            ? `每 ${t.every} ${unit.unit}`
            : `${unit.label.slice(1)}已达 ${Math.round(t.used ?? 0)} ${unit.unit}（计划每 ${t.every} ${unit.unit}）`;
        const id = await repo.insertRecord(tx, {
          kind: 'upkeep',
          status,
          device_id: t.device_id || null,
          ser_num: t.ser_num,
          toilet_id: t.subject_toilet_id,
          part_id: null,
          alarm_id: null,
          equipment_type_id: t.equipment_type_id,
          fault_type_id: null,
          description: `计划保养「${t.name}」：${why}`,
          reporter_id: t.user_id,
          assignee_id: t.assignee_id,
          response_hours: t.response_hours,
        });
        await plans.setRecordPlan(tx, id, t.plan_id, t.checklist, t.team_id);
        await plans.setTargetRecord(tx, t, id);
        await repo.insertEvent(tx, {
          record_id: id,
          action: 'plan',
          status,
          note: `计划「${t.name}」到期`,
          user_id: t.user_id,
        });
        const what = `${t.ser_num ? `设备 ${t.ser_num}` : '厕所'}：计划保养「${t.name}」，共 ${t.checklist.length} 项检查`;
        const told = [
          ...(t.assignee_id === null
            ? []
            : [{ user_id: t.assignee_id, title: `保养单 ${recordNo(id)} 已派给你`, content: what }]),
          // A team plan: every other member learns that the team has a new order.
          ...t.members
            .filter((m) => m !== t.assignee_id)
            .map((m) => ({
              user_id: m,
              title: `班组「${t.team_name}」有新的保养单 ${recordNo(id)}`,
              content: `${what}（由班组负责人处理）`,
            })),
        ];
        if (told.length > 0)
          events.push(
            ...(await deliver(
              tx,
              told.map((m) => ({ ...m, kind: 'system' })),
            )),
          );
        return id;
      })
      .catch((err: unknown) => {
        // A target that fails rolls back alone and stays due; the others still open.
        ctx.log.warn({ err, plan: t.plan_id }, 'planned maintenance order not opened');
        return null;
      });
    if (id !== null) {
      opened.push(id);
      repo.statsChanged();
      announce(ctx, events);
    }
  }
  return opened;
}
