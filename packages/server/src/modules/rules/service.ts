import {
  RULE_LIMITS,
  checkFormula,
  evaluateFormula,
  formulaInputs,
  formulaVars,
  tryCheckFormula,
  type AddRuleBody,
  type FormulaTestResult,
  type RuleRow,
  type UpdateRuleBody,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { create, mutate } from '../audit/mutate.ts';
import { visibleToiletIds } from '../toilets/repo.ts';
import { ruleEngineOf } from './engine.ts';
import * as repo from './repo.ts';
import { scopeOf } from '../access/users.ts';

export async function list(
  ctx: AppContext,
  caller: Caller,
  q: { keywords?: string; enabled?: boolean; page: number; page_size: number },
) {
  const r = await repo.listRules(ctx.db, {
    userId: caller.id,
    keywords: q.keywords || undefined,
    enabled: q.enabled,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function get(ctx: AppContext, caller: Caller, id: number): Promise<RuleRow> {
  const r = await repo.findRule(ctx.db, id, caller.id);
  if (!r) throw notFound('规则不存在');
  return r;
}

const missing = (label: string, ids: number[], ok: Set<number>) => {
  const bad = ids.filter((id) => !ok.has(id));
  if (bad.length) throw notFound(`${label}不存在或无权使用：${bad.slice(0, 10).join('、')}`);
};

/**
 * Every id a rule names must be the owner's to use: devices and toilets the owner sees,
 * templates and recipients the owner keeps. Only the fields given are checked.
 */
async function assertRefs(
  ctx: AppContext,
  caller: Caller,
  v: { device_ids?: number[]; toilet_ids?: number[]; template_id?: number | null; object_ids?: number[] },
) {
  const scope = await scopeOf(ctx, caller);
  if (v.device_ids?.length)
    missing('设备', v.device_ids, await repo.visibleRuleDeviceIds(ctx.db, v.device_ids, scope));
  if (v.toilet_ids?.length)
    missing('厕所', v.toilet_ids, await visibleToiletIds(ctx.db, v.toilet_ids, scope));
  if (v.template_id != null)
    missing(
      '通知模板',
      [v.template_id],
      await repo.ownedIds(ctx.db, 'notify_templates', [v.template_id], caller.id),
    );
  if (v.object_ids?.length)
    missing('通知对象', v.object_ids, await repo.ownedIds(ctx.db, 'notify_objects', v.object_ids, caller.id));
}

const uniq = (ids: number[]) => [...new Set(ids)];

/** Keeps only the id list the scope uses, so a rule never carries a stale other list. */
function scoped<T extends { scope: string; device_ids: number[]; toilet_ids: number[] }>(v: T): T {
  return {
    ...v,
    device_ids: v.scope === 'devices' ? uniq(v.device_ids) : [],
    toilet_ids: v.scope === 'toilets' ? uniq(v.toilet_ids) : [],
  };
}

export async function add(ctx: AppContext, caller: Caller, b: AddRuleBody, ip: string) {
  const v = scoped({ ...b, template_id: b.template_id ?? null, object_ids: uniq(b.object_ids) });
  await assertRefs(ctx, caller, v);
  const id = await create(ctx, caller, ip, {
    insert: async (tx) => {
      // Serialises one owner's adds so the limit holds under concurrent requests.
      await repo.lockOwner(tx, caller.id);
      if ((await repo.countRules(tx, caller.id)) >= RULE_LIMITS.perUser)
        throw conflict(`每个用户最多 ${RULE_LIMITS.perUser} 条规则`);
      return repo.insertRule(tx, caller.id, v);
    },
    audit: { action: 'rule.add', entity: 'notify_rule', targetUserId: caller.id },
    after: { name: v.name, formula: v.formula, scope: v.scope },
  });
  ruleEngineOf(ctx)?.invalidate();
  return get(ctx, caller, id);
}

export async function update(ctx: AppContext, caller: Caller, b: UpdateRuleBody, ip: string) {
  const cur = await get(ctx, caller, b.id);
  const scope = b.scope ?? cur.scope;
  const deviceIds = b.device_ids ?? cur.device_ids;
  const toiletIds = b.toilet_ids ?? cur.toilet_ids;
  if (!b.is_delete) {
    if (scope === 'devices' && !deviceIds.length) throw badRequest('请选择至少一台设备');
    if (scope === 'toilets' && !toiletIds.length) throw badRequest('请选择至少一个厕所');
    if ((b.min_count ?? cur.min_count) > 1 && (b.window_s ?? cur.window_s) <= 0)
      throw badRequest('按次数触发时，请填写统计时间');
  }
  // Ids only count under the scope that uses them; new ones are checked, kept ones are not
  // (a device unbound since would otherwise block switching the rule off).
  const newOnes = (next: number[] | undefined, prev: number[], used: boolean) =>
    used && next ? next.filter((id) => !prev.includes(id)) : undefined;
  await assertRefs(ctx, caller, {
    device_ids: newOnes(b.device_ids, cur.device_ids, scope === 'devices'),
    toilet_ids: newOnes(b.toilet_ids, cur.toilet_ids, scope === 'toilets'),
    template_id: b.template_id !== undefined && b.template_id !== cur.template_id ? b.template_id : undefined,
    object_ids: newOnes(b.object_ids && uniq(b.object_ids), cur.object_ids, true),
  });
  const next = {
    name: b.name,
    formula: b.formula,
    scope: b.scope,
    duration_s: b.duration_s,
    cooldown_s: b.cooldown_s,
    min_count: b.min_count,
    window_s: b.window_s,
    template_id: b.template_id,
    object_ids: b.object_ids && uniq(b.object_ids),
    enabled: b.enabled,
    is_delete: b.is_delete,
    ...(b.scope !== undefined || b.device_ids !== undefined || b.toilet_ids !== undefined
      ? scoped({ scope, device_ids: deviceIds, toilet_ids: toiletIds })
      : {}),
  };
  const m = await mutate(ctx, caller, ip, {
    row: cur,
    patch: next,
    table: repo.RULES,
    write: async (tx, set) => {
      // A new condition (or one that was not watched while off) counts its duration afresh.
      if (
        set.formula !== undefined ||
        set.enabled === true ||
        set.scope !== undefined ||
        set.min_count !== undefined ||
        set.window_s !== undefined
      )
        await repo.resetTrueSince(tx, cur.id);
    },
    audit: {
      action: b.is_delete ? 'rule.delete' : 'rule.update',
      entity: 'notify_rule',
      entityId: cur.id,
      targetUserId: caller.id,
    },
  });
  if (m.changed) ruleEngineOf(ctx)?.invalidate();
  return b.is_delete ? { ...cur, is_delete: true } : get(ctx, caller, cur.id);
}

export function check(formula: string) {
  return tryCheckFormula(formula);
}

/** The formula against a device's latest readings; the caller must see the device. */
export async function test(
  ctx: AppContext,
  caller: Caller,
  b: { formula: string; device_id: number },
): Promise<FormulaTestResult> {
  const d = await repo.deviceLatest(ctx.db, b.device_id, await scopeOf(ctx, caller));
  if (!d) throw notFound('设备不存在或无权访问');
  const ast = checkFormula(b.formula);
  const values = formulaInputs(d.latest ?? {});
  const result = evaluateFormula(ast, values);
  return {
    device_id: d.id,
    ser_num: d.ser_num,
    desc: d.desc,
    time: d.time,
    values,
    missing: formulaVars(ast).filter((v) => !(v in values)),
    result: typeof result === 'boolean' ? result : null,
  };
}

export async function hits(
  ctx: AppContext,
  caller: Caller,
  q: { rule_id?: number; device_id?: number; start?: string; end?: string; page: number; page_size: number },
) {
  if (q.rule_id !== undefined) await get(ctx, caller, q.rule_id);
  const r = await repo.listHits(ctx.db, {
    userId: caller.id,
    ruleId: q.rule_id,
    deviceId: q.device_id,
    start: q.start,
    end: q.end,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function devices(
  ctx: AppContext,
  caller: Caller,
  q: { keywords?: string; ids?: number[]; page: number; page_size: number },
) {
  const r = await repo.listRuleDevices(ctx.db, {
    scope: await scopeOf(ctx, caller),
    keywords: q.keywords || undefined,
    ids: q.ids,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}
