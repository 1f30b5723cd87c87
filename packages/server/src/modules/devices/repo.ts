import type { BoundUser, DevicePlace, DeviceRow } from '@se/core';
import type { Patchable } from '../../db/update.ts';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import {
  Params,
  SERIAL_LIKE,
  WALK_NEED,
  bindingPage,
  fewMatches,
  keywordLowerSql,
  keywordRowSql,
  keywordSql,
  localTime,
  onlineSql,
  rowsByIdsSql,
  selectPage,
  serialPrefixSql,
  walkFirst,
  type BindingFilter,
  type Page,
} from '../../db/sql.ts';
import type { JsonRows } from '../../db/json-rows.ts';
import { PageAnchors, listsGeneration } from '../../db/page-anchors.ts';
import {
  accountUnder,
  deviceAccessRows,
  deviceProbed,
  deviceSeen,
  toiletProbed,
} from '../access/visible-repo.ts';
import { deviceFactsSql, type AccessFacts } from '../access/repo.ts';

const rowSql = (offlineMs: string) => `d.id, d.kind, d.is_delete, d.ser_num, d."desc", d.lng, d.lat,
  d.location, d.version, d.url,
  (extract(epoch FROM d.time) * 1000)::float8 AS time,
  coalesce(d.time >= now() - ${offlineMs} * interval '1 millisecond', false) AS online,
  d.warning, d.star_count, d.star_level, ${localTime('d.config_date')} AS config_date, d.parameter_num, d.type,
  d.industrial_type, d.gateway_id, d.reading, d.latest,
  d.owners,
  ${localTime('d.created_at')} AS created_at`;
const row = (w: Params, offlineMs: number) => rowSql(w.p(offlineMs));

/**
 * The rows of a page's ids (selectPage `rows`), the kind's offline threshold written into the
 * text (a server setting, one text per kind kept prepared).
 */
const pageRows = new Map<number, string>();
function rowsOfPage(offlineMs: number) {
  let sql = pageRows.get(offlineMs);
  if (sql === undefined) {
    if (!Number.isSafeInteger(offlineMs))
      throw new Error(`offline threshold ${offlineMs} is not whole milliseconds`);
    pageRows.set(offlineMs, (sql = rowsByIdsSql(rowSql(`${offlineMs}::bigint`), 'devices', 'd')));
  }
  return sql;
}

/**
 * Where the plain device lists' pages were found lately (PageAnchors): a dealer's page 500
 * read its 10,000 closure entries before it; after a neighbouring page, a few. Dropped by
 * every audited write of this process (a device added, deleted or bound, an account moved).
 */
const deviceAnchors = new PageAnchors(listsGeneration);

export interface DeviceFilter {
  kind: string;
  scope: string;
  offlineMs: number;
  keywords?: string;
  online?: boolean;
  type?: number;
  industrialType?: string;
  ownerScope?: string;
  gatewayId?: number;
  limit: number;
  offset: number;
  /** Count every match instead of estimating past EXACT_COUNT_LIMIT. */
  exact?: boolean;
  /** The scope sees at most WALK_ROWS devices of the kind (access seesFewDevices). */
  few?: boolean;
}

/**
 * The list's filters on `d` beyond kind, deletion and the scope (none: the closure's index
 * answers alone, deviceAccessRows). `indexed`: the keyword through its token index; else
 * row by row (keywordRowSql), for rows read in order off another index.
 */
function deviceFilters(w: Params, f: Omit<DeviceFilter, 'limit' | 'offset'>, indexed = true) {
  const cond: string[] = [];
  if (f.keywords) cond.push((indexed ? keywordSql : keywordRowSql)(w, 'devices', f.keywords));
  if (f.online !== undefined) cond.push(onlineSql(w, f.offlineMs, f.online));
  if (f.type !== undefined) cond.push(`d.type = ${w.p(f.type)}`);
  if (f.industrialType) cond.push(`d.industrial_type = ${w.p(f.industrialType)}`);
  if (f.gatewayId !== undefined) cond.push(`d.gateway_id = ${w.p(f.gatewayId)}`);
  if (f.ownerScope) cond.push(deviceSeen(w, f.ownerScope, 'd.id', { kind: f.kind, live: true }));
  return cond;
}

/** The list's conditions on `d`: kind, deletion, the scope and the filters. */
function deviceWhere(w: Params, f: Omit<DeviceFilter, 'limit' | 'offset'>) {
  const seen = deviceSeen(w, f.scope, 'd.id', { kind: f.kind, live: true });
  return [`NOT d.is_delete`, `d.kind = ${w.p(f.kind)}`, seen, ...deviceFilters(w, f)].join(' AND ');
}

/**
 * The list's filters on a walk of ids `s`, row by row: a keyword on the text the caller's
 * closure row keeps when the walk is over closure rows (`own`, from deviceAccessRows;
 * migration 0062: no read of the device, no lower-casing of its text), the other filters (all
 * of them for develop's walk of the table) on the device's row, read only for the rows the
 * keyword let through (OFFSET 0: a probe per row, not a join planned against the whole
 * table). A serial-shaped keyword is a prefix of the serial number (keywordRowSql), and so of
 * the closure's text, which starts with it (device_search_text: the serial number, then a
 * space, which no such keyword holds): a customer's 50 devices asked `GW-0012` were 50
 * reads of a device row. `columns` are what the walk selects from `own`.
 */
function walkTests(
  w: Params,
  f: Omit<DeviceFilter, 'limit' | 'offset'>,
  own: { id: string; search: string } | null,
) {
  const text =
    own && f.keywords
      ? SERIAL_LIKE.test(f.keywords)
        ? serialPrefixSql(w, f.keywords, 's.search', true)
        : keywordLowerSql(w, 's.search', f.keywords)
      : null;
  const rest = deviceFilters(w, text ? { ...f, keywords: undefined } : f, false);
  const probe = rest.length
    ? `CROSS JOIN LATERAL (SELECT 1 FROM devices d WHERE d.id = s.id AND ${rest.join(' AND ')} OFFSET 0) d`
    : '';
  return {
    columns: own ? `${own.id} AS id${text ? `, ${own.search} AS search` : ''}` : '',
    hits: (s: string) => `SELECT s.id FROM ${s} s ${probe}${text ? ` WHERE ${text}` : ''}`,
  };
}

export function listDevices(
  q: Queryable,
  f: DeviceFilter & { json: true },
): Promise<Page<JsonRows<DeviceRow>>>;
export function listDevices(q: Queryable, f: DeviceFilter & { json?: false }): Promise<Page<DeviceRow[]>>;
export async function listDevices(
  q: Queryable,
  f: DeviceFilter & { json?: boolean },
): Promise<Page<DeviceRow[] | JsonRows<DeviceRow>>> {
  const w = new Params();
  const filters = deviceFilters(new Params(), f);
  // Nothing to filter but the scope: the page's ids come off the closure's index alone (plain).
  const access = filters.length === 0 ? deviceAccessRows(w, f.scope, f.kind) : null;
  // The page's ids first (skipped rows cost an index entry each), then the full rows for
  // those ids only. The count's parameters are those before the row's.
  const page = (
    ids: string | ((need: string) => string),
    s: { where: string; countFrom: string; estimateFrom?: string; prepare?: boolean; generic?: boolean },
  ) => {
    const countValues = [...w.values];
    const select = row(w, f.offlineMs);
    return selectPage<DeviceRow>(q, w, f, {
      list: (window, need) =>
        `WITH page AS (${typeof ids === 'string' ? ids : ids(need)} ${window})
         SELECT ${select} FROM page JOIN devices d ON d.id = page.id ORDER BY d.id DESC`,
      ...s,
      countValues,
      json: f.json,
    });
  };
  // The plain list, one index range whatever the page: its ids (and its capped count), then
  // their rows; a deep page starts below a known position near it (deviceAnchors).
  const plain = (from: string, id: string, where: string) =>
    selectPage<DeviceRow>(q, w, f, {
      list: (window, _need, below) =>
        `SELECT ${id} AS id FROM ${from} WHERE ${where}${below === null ? '' : ` AND ${id} < ${below}`}
          ORDER BY ${id} DESC ${window}`,
      rows: rowsOfPage(f.offlineMs),
      anchors: deviceAnchors,
      where,
      countFrom: from,
      prepare: true,
      generic: true,
      json: f.json,
    });
  if (access) return plain(access.from, access.id, access.where);
  // A small scope (a customer's): its own closure rows, each tested by its row. Exact, one
  // small statement whatever the page, where walkFirst's cost more to plan than to run.
  const small = f.few ? deviceAccessRows(w, f.scope, f.kind) : null;
  if (small) {
    const tests = walkTests(w, f, small);
    const hits = tests.hits(`(SELECT ${tests.columns} FROM ${small.from} WHERE ${small.where})`);
    return page(`${hits} ORDER BY s.id DESC`, { where: 'true', countFrom: `(${hits}) n`, prepare: true });
  }
  // A serial-number prefix is a short range of its own index, already in few rows.
  const serial = f.keywords !== undefined && SERIAL_LIKE.test(f.keywords);
  const walked = !f.exact && !serial && f.offset + f.limit <= WALK_NEED;
  // develop's plain list: one walk of the kind's index whatever the page.
  if (filters.length === 0) return plain('devices d', 'd.id', deviceWhere(w, f));
  if (f.exact || (!walked && !serial)) {
    // An export's exact count, a page far down: the filter's index.
    const where = deviceWhere(w, f);
    // A keyword's matches come off its index first, each then checked against the scope
    // (`OFFSET 0` keeps the page's LIMIT out of that plan).
    const ids = f.keywords
      ? `SELECT m.id FROM (SELECT d.id FROM devices d WHERE ${where} OFFSET 0) m ORDER BY m.id DESC`
      : `SELECT d.id FROM devices d WHERE ${where} ORDER BY d.id DESC`;
    return page(ids, { where, countFrom: 'devices d' });
  }
  const kind = w.p(f.kind);
  const byIndex = deviceFilters(w, f).join(' AND ');
  // The filter's matches off its index, each probed against the caller's closure rows.
  const probe = deviceProbed(w, f.scope, 'm.id', { kind: f.kind, live: true });
  const matches = `SELECT d.id FROM devices d WHERE NOT d.is_delete AND d.kind = ${kind} AND ${byIndex}`;
  // Below an id (a page anchor, see the walk below), or from the top.
  const under = (below: string | null, id: string) => (below === null ? '' : ` AND ${id} < ${below}`);
  const indexedFrom = (below: string | null) =>
    `SELECT m.id FROM (${matches}${under(below, 'd.id')} OFFSET 0) m WHERE ${probe}`;
  const indexed = indexedFrom(null);
  if (!walked) {
    return page(`SELECT n.id FROM (${indexed}) n ORDER BY n.id DESC`, {
      where: 'true',
      countFrom: `(${indexed}) n`,
      // A serial-number prefix alone is one range of its index whatever the prefix
      // (serialPrefixSql): one plan kept, its generic one (planning was 0.7 of a dealer's
      // 2.2 ms, PostgreSQL).
      ...(serial && filters.length === 1 ? { prepare: true, generic: true } : {}),
    });
  }
  // A filtered page near the top: the caller's devices newest first, tested row by row, or
  // the filter's index when they hold too few matches (walkFirst). A page past one read
  // lately starts below that page's last id (deviceAnchors, `below`): the online filter's
  // page 24 tested a dealer's 1,040 newest devices, after page 23 it tests ~60.
  const own = deviceAccessRows(w, f.scope, f.kind);
  const tests = walkTests(w, f, own);
  const rare = await fewMatches(
    q,
    (m) =>
      `SELECT 1 FROM devices d WHERE NOT d.is_delete AND d.kind = ${m.p(f.kind)} AND ${deviceFilters(m, f).join(' AND ')}`,
  );
  const first = (below: string | null) =>
    walkFirst({
      walk: own
        ? `SELECT ${tests.columns} FROM ${own.from} WHERE ${own.where}${under(below, own.id)} ORDER BY ${own.id} DESC`
        : `SELECT d.id FROM devices d WHERE NOT d.is_delete AND d.kind = ${kind}${under(below, 'd.id')} ORDER BY d.id DESC`,
      // Each walked id tested on its closure row and its device's row (walkTests).
      hits: (s) => `${tests.hits(s)} ORDER BY s.id DESC`,
      indexed: indexedFrom(below),
      order: 'id DESC',
      few: rare,
    });
  const { countFrom, estimateFrom } = first(null);
  return selectPage<DeviceRow>(q, w, f, {
    list: (window, need, below) => `${first(below).ids(need)} ${window}`,
    rows: rowsOfPage(f.offlineMs),
    anchors: deviceAnchors,
    where: 'true',
    countFrom,
    estimateFrom,
    // Kept prepared: one text whatever the page (walkFirst's `need` is a parameter) and each
    // way's plan fixed by its shape (the walk an index range, the index way fenced by OFFSET 0);
    // planning it was more than half of a keyword page's time (1.4 of 2.5 ms).
    prepare: true,
    json: f.json,
  });
}

/**
 * Every id of the filtered list in list order, in one query: exports walk these in chunks
 * (rowsByIds) instead of paying the visibility join once per page.
 */
export async function matchingIds(q: Queryable, f: Omit<DeviceFilter, 'limit' | 'offset'>) {
  const w = new Params();
  const rows = await q.query<{ id: number }>(
    `SELECT d.id FROM devices d WHERE ${deviceWhere(w, f)} ORDER BY d.id DESC`,
    w.values,
  );
  return rows.map((r) => r.id);
}

/** Full rows of these ids (already checked visible), in the order of the ids: a list page's rows statement. */
export function rowsByIds(q: Queryable, ids: number[], offlineMs: number) {
  return q.query<DeviceRow>(rowsOfPage(offlineMs), [ids], { prepare: true, generic: true });
}

/** One device of a kind if visible in the scope (deleted ones included for develop). */
export function findDevice(q: Queryable, kind: string, id: number, scope: string, offlineMs: number) {
  const w = new Params();
  const select = row(w, offlineMs);
  return first<DeviceRow>(
    q,
    `SELECT ${select} FROM devices d WHERE d.id = ${w.p(id)} AND d.kind = ${w.p(kind)} AND ${deviceSeen(w, scope)}`,
    w.values,
  );
}

/**
 * The toilet a device is in (`d` the device): where it is placed, else where its gateway is
 * placed, else the toilet its gateway (or, for a gateway, itself) serves. The device drawer,
 * an alarm's place and a work order's toilet (maintenance/repo.ts deviceSubject) all read it.
 */
export const deviceToiletSql = (d: string) =>
  `coalesce(${d}.toilet_id, (SELECT g.toilet_id FROM devices g WHERE g.id = ${d}.gateway_id),
     (SELECT t.id FROM toilets t WHERE NOT t.is_delete
       AND t.gateway_id IN (${d}.id, ${d}.gateway_id) ORDER BY t.id LIMIT 1))`;

/**
 * One device of a kind for its drawer, in one statement (the drawer's one round trip): the
 * facts its caller's right is decided from, its token, and where it is (issue 19, the
 * drawer's links: its toilet when the caller sees that toilet too, its campus room or
 * building), and the accounts it is bound to, each saying whether the caller manages it (the
 * 分配 dialog's 解绑). Deleted and unseen ones come too, for the caller to refuse; the token is
 * handed on only to those who manage the device.
 */
export function findDeviceWithFacts(
  q: Queryable,
  kind: string,
  id: number,
  scope: string,
  offlineMs: number,
) {
  const w = new Params();
  const select = row(w, offlineMs);
  const facts = deviceFactsSql(w, scope);
  // One toilet, probed (a select list's `IN` hashed a dealer's every toilet: see deviceFactsSql).
  const seen = toiletProbed(w, scope, 't.id');
  const under = `${w.p(scope)}::text`;
  return first<DeviceRow & AccessFacts & { token: string; place: DevicePlace; bound_users: BoundUser[] }>(
    q,
    `SELECT ${select}, ${facts.columns}, d.token,
            json_build_object(
              'toilet_id', vt.id, 'toilet_name', coalesce(vt.name, ''),
              'building_id', p.building_id, 'building_name', coalesce(b.name, ''),
              'room_id', p.room_id, 'room_number', coalesce(r.number, ''),
              'room_name', coalesce(r.name, '')) AS place,
            coalesce((SELECT json_agg(json_build_object('id', u.id, 'user_name', u.user_name,
                                                        'manageable', ${accountUnder('u', under)}) ORDER BY u.id)
                        FROM device_bindings bu JOIN users u ON u.id = bu.user_id
                       WHERE bu.device_id = d.id AND NOT u.is_delete
                         AND (${accountUnder('u', under)} OR ${under} LIKE u.path || '%')), '[]'::json)
              AS bound_users
       FROM devices d ${facts.joins}
       LEFT JOIN LATERAL (SELECT t.id, t.name FROM toilets t
                           WHERE t.id = ${deviceToiletSql('d')} AND ${seen}) vt ON true
       LEFT JOIN placements p ON p.device_id = d.id
       LEFT JOIN campus_buildings b ON b.id = p.building_id AND NOT b.is_delete
       LEFT JOIN campus_rooms r ON r.id = p.room_id AND NOT r.is_delete
      WHERE d.id = ${w.p(id)} AND d.kind = ${w.p(kind)}`,
    w.values,
    // Planning this statement cost 1–2.5 ms, running it 0.2–0.6 ms: one plan kept per connection.
    { prepare: true, generic: true },
  );
}

/** Ids among `ids` of this kind that are visible in the scope and not deleted. */
export async function visibleIds(
  q: Queryable,
  kind: string,
  ids: number[],
  scope: string,
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const w = new Params();
  const rows = await q.query<{ id: number }>(
    `SELECT d.id FROM devices d WHERE d.id = ANY(${w.p(ids)}::int[]) AND d.kind = ${w.p(kind)} AND NOT d.is_delete
        AND ${deviceSeen(w, scope, 'd.id', { kind, live: true })}`,
    w.values,
  );
  return new Set(rows.map((r) => r.id));
}

export interface NewDevice {
  kind: string;
  ser_num: string;
  desc: string;
  lng?: number;
  lat?: number;
  location: string;
  version: string;
  url: string;
  token: string;
  type?: number | null;
  industrial_type?: string | null;
  gateway_id?: number;
  parameter_num?: number;
}

export async function insertDevice(q: Queryable, v: NewDevice) {
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO devices (kind, ser_num, "desc", lng, lat, location, version, url, token, type, industrial_type,
                          gateway_id, parameter_num)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
    [
      v.kind,
      v.ser_num,
      v.desc,
      v.lng ?? null,
      v.lat ?? null,
      v.location,
      v.version,
      v.url,
      v.token,
      v.type ?? null,
      v.industrial_type ?? null,
      v.gateway_id ?? null,
      v.parameter_num ?? null,
    ],
  );
  await q.query(`INSERT INTO device_info (device_id) VALUES ($1)`, [r!.id]);
  return r!.id;
}

/**
 * Inserts many devices (and their info rows) in one statement: an import's chunk. A serial
 * number a live device took since the caller checked is skipped, not an error, so the caller
 * learns which ones raced (those missing from the answer) and decides. Answers ser_num → id;
 * ids are drawn in the order of `rows`. The registrant is recorded here, as bindDevices would
 * record it on their first binding (which the caller still makes), sparing an UPDATE of every
 * row just written.
 */
export async function insertDevices(
  q: Queryable,
  rows: NewDevice[],
  registrant: number,
): Promise<Map<string, number>> {
  if (rows.length === 0) return new Map();
  const col = <K extends keyof NewDevice>(k: K) => rows.map((r) => r[k] ?? null);
  const out = await q.query<{ id: number; ser_num: string }>(
    `WITH ins AS (
       INSERT INTO devices (kind, ser_num, "desc", lng, lat, location, version, url, token, type, industrial_type,
                            gateway_id, parameter_num, registered_by)
       SELECT kind, ser_num, "desc", lng, lat, location, version, url, token, type, industrial_type,
              gateway_id, parameter_num, $14
         FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[], $6::text[], $7::text[],
                     $8::text[], $9::text[], $10::int[], $11::text[], $12::int[], $13::int[])
              WITH ORDINALITY AS u(kind, ser_num, "desc", lng, lat, location, version, url, token, type,
                                   industrial_type, gateway_id, parameter_num, n)
        ORDER BY n
       ON CONFLICT (ser_num) WHERE NOT is_delete DO NOTHING
       RETURNING id, ser_num
     ), info AS (
       INSERT INTO device_info (device_id) SELECT id FROM ins
     )
     SELECT id, ser_num FROM ins`,
    [
      col('kind'),
      col('ser_num'),
      col('desc'),
      col('lng'),
      col('lat'),
      col('location'),
      col('version'),
      col('url'),
      col('token'),
      col('type'),
      col('industrial_type'),
      col('gateway_id'),
      col('parameter_num'),
      registrant,
    ],
  );
  return new Map(out.map((r) => [r.ser_num, r.id]));
}

/** Patched by the service (modules/audit/mutate.ts). */
export const DEVICES: Patchable<
  'is_delete' | 'desc' | 'lng' | 'lat' | 'location' | 'version' | 'url' | 'type' | 'industrial_type'
> = {
  table: 'devices',
  columns: ['is_delete', 'desc', 'lng', 'lat', 'location', 'version', 'url', 'type', 'industrial_type'],
};

/**
 * Binds devices to a user. Registering (one device or an import) binds to the registrant
 * first, so the first account a device is bound to is recorded as its registrant: it and
 * the managers above it manage the device (modules/access/devices.ts).
 */
export async function bindDevices(q: Queryable, userId: number, ids: number[]) {
  if (ids.length === 0) return;
  await q.query(
    `INSERT INTO device_bindings (device_id, user_id) SELECT unnest($1::int[]), $2 ON CONFLICT DO NOTHING`,
    [ids, userId],
  );
  await q.query(
    `UPDATE devices SET registered_by = $2 WHERE id = ANY($1::int[]) AND registered_by IS NULL AND kind <> 'sensor'`,
    [ids, userId],
  );
}

/**
 * Of the live devices using these serial numbers, those the scope sees (a sensor through its
 * gateway): a duplicate may be named as such to its own tenant only.
 */
export async function visibleSerNums(q: Queryable, sers: string[], scope: string): Promise<Set<string>> {
  if (sers.length === 0) return new Set();
  const w = new Params();
  const cond = deviceSeen(w, scope);
  const rows = await q.query<{ ser_num: string }>(
    `SELECT d.ser_num FROM devices d WHERE d.ser_num = ANY(${w.p(sers)}::text[]) AND NOT d.is_delete AND ${cond}`,
    w.values,
  );
  return new Set(rows.map((r) => r.ser_num));
}

export function unbindDevices(q: Queryable, userId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return q.query(`DELETE FROM device_bindings WHERE user_id = $2 AND device_id = ANY($1::int[])`, [
    ids,
    userId,
  ]);
}

export function listForBinding(q: Queryable, f: BindingFilter & { kind: string }) {
  const w = new Params();
  const seen = deviceSeen(w, f.scope, 'd.id', { kind: f.kind, live: true });
  const cond = [`NOT d.is_delete`, `d.kind = ${w.p(f.kind)}`, seen];
  if (f.keywords) cond.push(keywordSql(w, 'devices', f.keywords));
  return bindingPage(q, w, f, {
    cond,
    bound: (p) => `EXISTS (SELECT 1 FROM device_bindings tb WHERE tb.device_id = d.id AND tb.user_id = ${p})`,
    columns: 'd.id, d.ser_num, d."desc", d.location',
    from: 'devices d',
    order: 'd.id DESC',
  });
}

export async function kindOf(q: Queryable, id: number): Promise<string | undefined> {
  return (await first<{ kind: string }>(q, `SELECT kind FROM devices WHERE id = $1 AND NOT is_delete`, [id]))
    ?.kind;
}

/** Serial numbers among `sers` already used by a live device of any kind. */
export async function existingSerNums(q: Queryable, sers: string[]): Promise<Set<string>> {
  if (sers.length === 0) return new Set();
  const rows = await q.query<{ ser_num: string }>(
    `SELECT ser_num FROM devices WHERE ser_num = ANY($1::text[]) AND NOT is_delete`,
    [sers],
  );
  return new Set(rows.map((r) => r.ser_num));
}
