import {
  EXPOSURE_GASES,
  EXPOSURE_HOLD_MS,
  OFFLINE_MS,
  SHIFTS,
  type ExposureReport,
  type ExposureRow,
  type SiteRow,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { badRequest } from '../../errors.ts';
import { assertOrgSeen, orgScopeOf } from '../access/orgs.ts';
import { judge, monitorShift, worstOf, type GasExposure } from './exposure.ts';
import * as repo from './repo.ts';

const HOUR = 3_600_000;

async function monitorScope(ctx: AppContext, caller: Caller): Promise<repo.MonitorScope> {
  const s = await orgScopeOf(ctx, caller);
  return { scope: s.scope, orgId: s.orgId };
}

export async function monitors(
  ctx: AppContext,
  caller: Caller,
  q: {
    keywords?: string;
    org_id?: number;
    building_id?: number;
    room_id?: number;
    industrial_type?: string;
    online?: boolean;
    page: number;
    page_size: number;
  },
) {
  const r = await repo.listMonitors(ctx.db, await monitorScope(ctx, caller), {
    keywords: q.keywords || undefined,
    orgId: q.org_id,
    buildingId: q.building_id,
    roomId: q.room_id,
    industrialType: q.industrial_type || undefined,
    online: q.online,
    offlineMs: OFFLINE_MS.default,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

/** Sites with their workshops and work areas, from the placements of the caller's monitors. */
export async function sites(ctx: AppContext, caller: Caller): Promise<SiteRow[]> {
  const rows = await repo.siteAreas(ctx.db, await monitorScope(ctx, caller));
  const out: SiteRow[] = [];
  for (const r of rows) {
    let site = out.at(-1);
    if (site?.id !== r.org_id) out.push((site = { id: r.org_id, name: r.org_name, buildings: [] }));
    let b = site.buildings.at(-1);
    if (b?.id !== r.building_id)
      site.buildings.push((b = { id: r.building_id, name: r.building_name, rooms: [] }));
    if (r.room_id !== null) b.rooms.push({ id: r.room_id, name: r.room_name ?? '' });
  }
  return out;
}

/**
 * A site's exposure on one day (UTC+8): per work area (room, or a workshop's monitors
 * not in a room) and shift, the worst monitor's 8-h TWA, 15-min STEL and highest reading
 * per gas against GBZ 2.1-2019. Only monitors the caller sees count; a site the caller
 * neither works in nor has monitors in answers 组织不存在.
 */
export async function exposure(
  ctx: AppContext,
  caller: Caller,
  q: { org_id: number; date: string },
  now = Date.now(),
): Promise<ExposureReport> {
  const dayStart = Date.parse(`${q.date}T00:00:00+08:00`);
  if (Number.isNaN(dayStart)) throw badRequest('日期无效');
  if (dayStart > now) throw badRequest('不能查询未来的日期');
  const s = await monitorScope(ctx, caller);
  const list = await repo.siteMonitors(ctx.db, s, q.org_id);
  if (!list.length) await assertOrgSeen(ctx, caller, q.org_id);
  const [org] = await repo.orgName(ctx.db, q.org_id);
  const readings = list.length
    ? await repo.gasReadings(
        ctx.db,
        list.map((m) => m.id),
        new Date(dayStart - EXPOSURE_HOLD_MS).toISOString(),
        new Date(dayStart + 24 * HOUR).toISOString(),
      )
    : [];
  const byDevice = new Map<number, { ts: number; data: Record<string, number | undefined> }[]>();
  for (const r of readings) {
    let a = byDevice.get(r.device_id);
    if (!a) byDevice.set(r.device_id, (a = []));
    a.push({
      ts: Number(r.ts),
      data: { nh3: r.nh3 ?? undefined, h2s: r.h2s ?? undefined, co2: r.co2 ?? undefined },
    });
  }
  // Work areas in list order: a room, or the workshop itself for monitors outside rooms.
  const areas = new Map<
    string,
    { building_id: number; building_name: string; room_id: number | null; room_name: string; ids: number[] }
  >();
  for (const m of list) {
    const key = `${m.building_id}|${m.room_id ?? ''}`;
    let a = areas.get(key);
    if (!a)
      areas.set(
        key,
        (a = {
          building_id: m.building_id,
          building_name: m.building_name,
          room_id: m.room_id,
          room_name: m.room_name ?? '（车间公共区域）',
          ids: [],
        }),
      );
    a.ids.push(m.id);
  }
  const rows: ExposureRow[] = [];
  for (const a of areas.values())
    for (const shift of SHIFTS) {
      const from = dayStart + shift.from * HOUR;
      const to = dayStart + shift.to * HOUR;
      if (from > now) continue;
      const per = a.ids.map((id) => monitorShift(byDevice.get(id) ?? [], from, to));
      const gases: ExposureRow['gases'] = {};
      let covered = 0;
      for (const g of EXPOSURE_GASES) {
        const w: GasExposure = worstOf(per.map((p) => p[g]));
        covered = Math.max(covered, w.coveredMs);
        gases[g] = judge(g, w);
      }
      rows.push({
        building_id: a.building_id,
        building_name: a.building_name,
        room_id: a.room_id,
        room_name: a.room_name,
        shift: shift.key,
        shift_label: shift.label,
        monitors: a.ids.length,
        covered_min: Math.round(covered / 60_000),
        partial: to > now,
        gases,
      });
    }
  return { org_id: q.org_id, org_name: org?.name ?? '', date: q.date, rows };
}
