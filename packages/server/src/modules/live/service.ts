import { FIVE_MINUTES, HISTORY_RANGES, TZ_OFFSET_ISO, type HistoryData } from '@se/core';
import type { z } from 'zod';
import type { alarmListQuery, historyQuery } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { badRequest, notFound } from '../../errors.ts';
import { deviceRight } from '../access/devices.ts';
import * as repo from './repo.ts';
import type { HistoryRow, HistorySource, Span } from './repo.ts';
import { JsonRows } from '../../db/json-rows.ts';
import type { Answer } from '../../http/route.ts';
import {
  CLOSED_AFTER_MS,
  fieldsIn,
  fieldsOf,
  historyCacheOf,
  textOf,
  type Closed,
  type Point,
} from './history-cache.ts';
import { scopeOf } from '../access/users.ts';

/** Refuses a device the caller does not see (or a deleted one): one point check, no row read. */
async function visibleDevice(ctx: AppContext, caller: Caller, id: number) {
  const a = await deviceRight(ctx, caller, 'device', id);
  if (!a || a.right === 'none' || a.facts.is_delete) throw notFound('设备不存在');
}

const HOUR = 3_600_000;
const MAX_POINTS = 400;
/** Raw reports up to this range; beyond it the five-minute rollup, beyond ROLLUP5_LIMIT_MS the hourly one. */
const RAW_LIMIT_MS = 3 * HOUR;
const ROLLUP5_LIMIT_MS = 2 * 86_400_000;

/** UTC+8 'YYYY-MM-DD HH:mm:ss' → Date. */
const local = (s: string) => new Date(`${s.replace(' ', 'T')}${TZ_OFFSET_ISO}`);

/** `ms` rounded up to a whole number of `unit`, at least one. */
const whole = (ms: number, unit: number) => Math.max(unit, Math.ceil(ms / unit) * unit);

/**
 * A device's history: averages per bucket of every numeric field, at most MAX_POINTS
 * buckets, from raw reports for a few hours, the five-minute rollup up to two days, the hourly
 * one beyond; one statement reads the visibility, the device's history revision and the rows
 * (repo.history), averaged here. A chart range (`range`, the device drawer's) takes its
 * closed buckets from the history cache when it holds them at the device's current revision
 * and reads only the rest (history-cache.ts); a second statement reads the whole window when
 * late reports changed the revision.
 */
export async function history(
  ctx: AppContext,
  caller: Caller,
  q: z.output<typeof historyQuery>,
): Promise<Answer<HistoryData>> {
  let start: Date;
  let end: Date;
  const explicit = Boolean(q.start || q.end);
  if (explicit) {
    if (!q.start || !q.end) throw badRequest('请同时给出开始和结束时间');
    start = local(q.start);
    end = local(q.end);
    if (end <= start) throw badRequest('结束时间必须晚于开始时间');
    if (end.getTime() - start.getTime() > 400 * 86_400_000) throw badRequest('时间范围不能超过400天');
  } else {
    end = new Date();
    start = new Date(end.getTime() - HISTORY_RANGES[q.range ?? '24h']);
  }
  const span = end.getTime() - start.getTime();
  const source: HistorySource = span <= RAW_LIMIT_MS ? 'raw' : span <= ROLLUP5_LIMIT_MS ? '5min' : 'hourly';
  const unit = { raw: 10_000, '5min': FIVE_MINUTES, hourly: HOUR }[source];
  const bucket = whole(whole(span / MAX_POINTS, 10_000), unit);
  const scope = await scopeOf(ctx, caller);
  const from = start.getTime();
  const to = end.getTime();
  // The window's closed whole buckets [first, closed): cached for chart ranges.
  const first = Math.ceil(from / bucket) * bucket;
  const closed = Math.floor((to - CLOSED_AFTER_MS) / bucket) * bucket;
  const cache = historyCacheOf(ctx.db);
  const key = `${q.device_id}|${q.range ?? '24h'}`;
  const cacheable = !explicit && closed > first;
  const held = cacheable ? cache.get(key, first, to) : undefined;
  const read = (spans: Span[]) => repo.history(ctx.db, scope, { deviceId: q.device_id, source, spans });
  // Rollup rows start on whole units, so a range from the first whole unit reads the same rows;
  // and a chart range ends now, past which only a clock ahead has rows, left out below. So the
  // statement's parameters stay the same for a while and identical requests share one
  // execution (db coalescing): a burst of charts of one device costs one read.
  const lo = source === 'raw' ? from : Math.ceil(from / unit) * unit;
  const hi = explicit ? to : Infinity;
  let got = await read(
    // The rows of the partial first bucket (if it can hold one), and the newest minutes.
    held
      ? [...(lo < first ? [{ from: lo, to: first }] : []), { from: held.to, to: hi }]
      : [{ from: lo, to: hi }],
  );
  // Reports arrived late since the closed buckets were read: all of it again.
  const reuse = held && got && got.rev === held.rev;
  if (held && got && !reuse) got = await read([{ from: lo, to: hi }]);
  if (!got) throw notFound('设备不存在');
  const fresh = averages(
    source,
    got.rows.filter((r) => r[0] < to),
    bucket,
  );
  if (!cacheable) return { bucket_ms: bucket, source, fields: fieldsIn(fresh).sort(), points: fresh };
  // The closed buckets [first, closed): the cached ones while they are the same, else the
  // held ones still in the window and those closed since, or all read afresh.
  const kept: Closed =
    reuse && held.from === first && held.to === closed
      ? held
      : {
          rev: got.rev,
          from: first,
          to: closed,
          points: [
            ...(reuse ? held.points.filter((p) => p.ts! >= first) : []),
            ...fresh.filter((p) => p.ts! >= (reuse ? held.to : first) && p.ts! < closed),
          ],
          at: reuse ? held.at : to,
        };
  if (kept !== held) cache.set(key, kept);
  const head = fresh.filter((p) => p.ts! < first);
  const tail = fresh.filter((p) => p.ts! >= closed);
  const items = [...head.map((p) => JSON.stringify(p)), textOf(kept), ...tail.map((p) => JSON.stringify(p))];
  return {
    bucket_ms: bucket,
    source,
    fields: fieldsIn([...head, ...tail], new Set(fieldsOf(kept))).sort(),
    points: new JsonRows<Point>(`[${items.filter(Boolean).join(',')}]`),
  };
}

/**
 * Stored rows as one point per bucket of `bucket` ms, oldest first: each numeric field's mean
 * over the reports in the bucket (raw values; the five-minute rollup's counts and sums; the
 * hourly one's), rounded to 3 decimals. A bucket without a numeric field has no point.
 */
function averages(source: HistorySource, rows: HistoryRow[], bucket: number): Point[] {
  const buckets = new Map<number, Map<string, { s: number; n: number }>>();
  const add = (ts: number, k: string, s: number, n: number) => {
    if (!Number.isFinite(s) || !Number.isFinite(n)) return;
    let b = buckets.get(ts);
    if (!b) buckets.set(ts, (b = new Map()));
    const acc = b.get(k);
    if (!acc) b.set(k, { s, n });
    else {
      acc.s += s;
      acc.n += n;
    }
  };
  for (const [at, f, c] of rows) {
    const ts = Math.floor(at / bucket) * bucket;
    for (const k in f) {
      const v = f[k];
      if (source === 'raw') {
        if (typeof v === 'number') add(ts, k, v, 1);
      } else if (source === '5min') {
        if (Array.isArray(v)) add(ts, k, Number(v[1]), Number(v[0]));
      } else add(ts, k, Number(v), Number(c?.[k]));
    }
  }
  const points: Point[] = [];
  for (const ts of [...buckets.keys()].sort((x, y) => x - y)) {
    const p: Point = { ts };
    for (const [k, { s, n }] of buckets.get(ts)!) if (n > 0) p[k] = Math.round((s / n) * 1000) / 1000;
    points.push(p);
  }
  return points;
}

export async function listAlarms(ctx: AppContext, caller: Caller, q: z.output<typeof alarmListQuery>) {
  if (q.device_id !== undefined) await visibleDevice(ctx, caller, q.device_id);
  const r = await repo.listAlarms(ctx.db, {
    scope: await scopeOf(ctx, caller),
    status: q.status,
    type: q.type,
    deviceId: q.device_id,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function countAlarms(ctx: AppContext, caller: Caller) {
  return repo.countAlarms(ctx.db, await scopeOf(ctx, caller));
}

export async function ackAlarm(ctx: AppContext, caller: Caller, id: number) {
  const scope = await scopeOf(ctx, caller);
  const a = await repo.findAlarm(ctx.db, id, scope);
  if (!a) throw notFound('报警不存在');
  await repo.ackAlarm(ctx.db, id, caller.id);
  ctx.events.emit('alarms', [id]);
  return (await repo.findAlarm(ctx.db, id, scope))!;
}
