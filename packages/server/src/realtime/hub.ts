import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  CODE,
  DEVICE_KINDS,
  OFFLINE_MS,
  WS_TYPE,
  WS_VERSION,
  type CampusPush,
  type DevicePush,
  type MessagesPush,
  type RuleFiredPush,
  type WsChannel,
  type WsPush,
} from '@se/core';
import type { AppContext, Caller } from '../context.ts';
import { sameSiteOrigin } from '../http/security.ts';
import { campusRight } from '../modules/access/campus.ts';
import { scopeOf } from '../modules/access/users.ts';
import type { StoredReport } from '../ingest/pipeline.ts';
import { commentsByIds } from '../modules/datacenter/repo.ts';
import { findDevice, kindOf } from '../modules/devices/repo.ts';
import { alarmsByIds } from '../modules/live/repo.ts';

import type { EventBus } from './bus.ts';
import { placedDeviceIds, visibleDeviceIds, visibleToiletIds } from './repo.ts';
export { EventBus } from './bus.ts';

const FLUSH_MS = 200;
const REFRESH_MS = 60_000;
const MAX_BUFFER = 2000;

interface Conn {
  ws: WebSocket;
  token: string | null;
  caller: Caller | null;
  scope: string;
  devices: Set<number>;
  kinds: Map<string, Set<number> | 'all'>;
  alarms: Set<number> | 'all' | null;
  /** Toilets and devices whose new comments the socket receives; null: not subscribed. */
  comments: { toilets: Set<number>; devices: Set<number> } | 'all' | null;
  /** Subscribed to its own unread message count. */
  messages: boolean;
  /** Subscribed to its own rules firing. */
  rules: boolean;
  /** A campus organisation's placed devices (and their sensors); null: not subscribed. */
  campus: { orgId: number; devices: Set<number> } | null;
  buffer: WsPush[];
  refreshed: number;
}

const offlineOf = (kind: string) =>
  kind === 'sensor' ? OFFLINE_MS.sensor : kind.endsWith('_meter') ? OFFLINE_MS.meter : OFFLINE_MS.default;

/**
 * /ws: protocol v1 (SPEC §4). A browser signs in with its session token, subscribes to a
 * device, a kind or the alarm feed, and the server checks every subscription against what
 * the user may see. Pushes are coalesced per socket every FLUSH_MS.
 */
export function realtime(app: FastifyInstance, ctx: AppContext, bus: EventBus) {
  const conns = new Set<Conn>();

  const send = (c: Conn, msg: unknown) => {
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify(msg));
  };
  const push = (c: Conn, p: Omit<WsPush, 'v' | 'type'>) => {
    if (c.buffer.length < MAX_BUFFER) c.buffer.push({ v: WS_VERSION, type: WS_TYPE.push, ...p });
  };

  const flush = setInterval(() => {
    for (const c of conns) {
      if (!c.buffer.length) continue;
      // The newest push per channel and object (device, alarm) wins: a slow browser gets the
      // state, not a backlog.
      const last = new Map<string, WsPush>();
      for (const p of c.buffer) last.set(`${p.channel}|${(p.data as { id?: number }).id ?? ''}`, p);
      c.buffer = [];
      for (const p of last.values()) send(c, p);
    }
  }, FLUSH_MS);
  flush.unref();

  /** Device ids of a kind (or all kinds for alarms) the caller sees; 'all' for develop. */
  async function visibleIds(c: Conn, kind?: string): Promise<Set<number> | 'all'> {
    if (c.scope === '/') return 'all';
    return new Set(await visibleDeviceIds(ctx.db, c.scope, kind));
  }

  /** Toilets the caller sees; 'all' for develop. */
  async function visibleToilets(c: Conn): Promise<Set<number> | 'all'> {
    if (c.scope === '/') return 'all';
    return new Set(await visibleToiletIds(ctx.db, c.scope));
  }

  /** What the comments channel lets through: comments on a visible toilet or from a visible device. */
  async function commentScope(c: Conn): Promise<Conn['comments']> {
    const [toilets, devices] = await Promise.all([visibleToilets(c), visibleIds(c)]);
    if (toilets === 'all' || devices === 'all') return 'all';
    return { toilets, devices };
  }

  async function refresh(c: Conn) {
    c.refreshed = Date.now();
    for (const kind of c.kinds.keys()) c.kinds.set(kind, await visibleIds(c, kind));
    if (c.alarms) c.alarms = await visibleIds(c);
    if (c.comments) c.comments = await commentScope(c);
    if (c.campus && c.caller) c.campus = await campusSubscription(c.caller, c.campus.orgId).catch(() => null);
  }

  /** The placed devices of the organisation the caller may read (modules/access decides). */
  async function campusSubscription(caller: Caller, orgId: number | undefined) {
    const s = await campusRight(ctx, caller, 'read', orgId);
    return { orgId: s.orgId, devices: new Set(await placedDeviceIds(ctx.db, s.orgId)) };
  }

  async function handle(c: Conn, raw: string) {
    let req: { v?: number; type?: number; id?: string; action?: string; data?: Record<string, unknown> };
    try {
      req = JSON.parse(raw);
    } catch {
      return send(c, {
        v: 1,
        type: WS_TYPE.error,
        data: { code: CODE.badRequest, message: '消息不是有效的 JSON' },
      });
    }
    const id = typeof req.id === 'string' ? req.id : undefined;
    const fail = (code: number, message: string) =>
      send(c, { v: 1, type: WS_TYPE.error, id, data: { code, message } });
    const ok = (data: unknown = null) => send(c, { v: 1, type: WS_TYPE.reply, id, data });
    if (req.v !== WS_VERSION || req.type !== WS_TYPE.request || !id)
      return fail(CODE.badRequest, '仅支持协议版本 1 的请求');
    if (req.action === 'ping') return ok('pong');
    if (req.action === 'auth') {
      c.token = typeof req.data?.token === 'string' ? req.data.token.replace(/"/g, '') : null;
      const r = await ctx.sessions.resolve(c.token);
      if (!r.ok) return fail(r.code, r.message);
      c.caller = r.caller;
      c.scope = await scopeOf(ctx, r.caller);
      return ok({ user_id: r.caller.id });
    }
    if (!c.caller) return fail(CODE.unauthorized, '请先登录');
    // A session that ended (logout, expiry, deletion) ends the subscriptions too.
    const still = await ctx.sessions.resolve(c.token);
    if (!still.ok) {
      c.caller = null;
      c.devices.clear();
      c.kinds.clear();
      c.alarms = null;
      c.comments = null;
      c.messages = false;
      c.rules = false;
      return fail(still.code, still.message);
    }
    const ch = req.data as unknown as WsChannel | undefined;
    if (req.action !== 'subscribe' && req.action !== 'unsubscribe')
      return fail(CODE.badRequest, '未知的请求');
    if (!ch || typeof ch !== 'object') return fail(CODE.badRequest, '缺少订阅的频道');
    const on = req.action === 'subscribe';
    if (ch.channel === 'device' && Number.isInteger(ch.id)) {
      if (on) {
        const kind = await kindOf(ctx.db, ch.id);
        const d = kind ? await findDevice(ctx.db, kind, ch.id, c.scope, offlineOf(kind)) : undefined;
        if (!d || d.is_delete) return fail(CODE.notFound, '设备不存在');
        c.devices.add(ch.id);
      } else c.devices.delete(ch.id);
      return ok();
    }
    if (ch.channel === 'devices' && typeof ch.kind === 'string') {
      if (!(ch.kind in DEVICE_KINDS) && ch.kind !== 'sensor') return fail(CODE.badRequest, '未知的设备类型');
      if (on) c.kinds.set(ch.kind, await visibleIds(c, ch.kind));
      else c.kinds.delete(ch.kind);
      return ok();
    }
    if (ch.channel === 'alarms') {
      c.alarms = on ? await visibleIds(c) : null;
      return ok();
    }
    if (ch.channel === 'comments') {
      c.comments = on ? await commentScope(c) : null;
      return ok();
    }
    if (ch.channel === 'messages') {
      c.messages = on;
      return ok();
    }
    if (ch.channel === 'rules') {
      c.rules = on;
      return ok();
    }
    if (ch.channel === 'campus') {
      if (!on) {
        c.campus = null;
        return ok();
      }
      const orgId = Number.isSafeInteger(ch.org_id) && ch.org_id! > 0 ? ch.org_id : undefined;
      try {
        c.campus = await campusSubscription(c.caller, orgId);
      } catch (err) {
        const e = err as { code?: number; message?: string };
        return fail(e.code ?? CODE.forbidden, e.message ?? '没有智慧园区的权限');
      }
      return ok({ org_id: c.campus.orgId });
    }
    return fail(CODE.badRequest, '未知的频道');
  }

  // A browser sends its cookies and its network position with any page's upgrade; only
  // pages of this site (or the configured ones) may open the socket. No Origin: not a browser.
  const checkOrigin = async (req: FastifyRequest, reply: FastifyReply) => {
    const origin = req.headers.origin;
    if (origin === undefined || sameSiteOrigin(origin, req, ctx.config.allowedOrigins)) return;
    return reply.code(403).send({ code: CODE.forbidden, message: '不允许从该网页连接实时推送', data: null });
  };

  app.get('/ws', { websocket: true, preValidation: checkOrigin }, (ws) => {
    const c: Conn = {
      ws,
      token: null,
      caller: null,
      scope: '',
      devices: new Set(),
      kinds: new Map(),
      alarms: null,
      comments: null,
      messages: false,
      rules: false,
      campus: null,
      buffer: [],
      refreshed: Date.now(),
    };
    conns.add(c);
    // Requests of one socket are handled in order.
    let chain = Promise.resolve();
    ws.on('message', (m) => {
      const text = m.toString();
      if (text.length > 4096) return ws.close(1009, 'message too big');
      chain = chain.then(() => handle(c, text)).catch((err) => app.log.warn({ err }, 'ws request failed'));
    });
    ws.on('close', () => conns.delete(c));
  });

  bus.on('reports', (stored: StoredReport[]) => {
    if (!conns.size) return;
    const now = Date.now();
    for (const s of stored) {
      const p: DevicePush = {
        id: s.device_id,
        kind: s.kind,
        time: s.ts,
        online: now - s.ts <= offlineOf(s.kind),
        warning: typeof s.data.warning === 'number' ? s.data.warning : null,
        data: s.data,
      };
      for (const c of conns) {
        if (c.devices.has(s.device_id)) push(c, { channel: 'device', key: s.device_id, data: p });
        const vis = c.kinds.get(s.kind);
        if (vis && (vis === 'all' || vis.has(s.device_id)))
          push(c, { channel: 'devices', key: s.kind, data: p });
        if (c.campus?.devices.has(s.device_id)) {
          const cp: CampusPush = { id: s.device_id, event: 'report' };
          push(c, { channel: 'campus', data: cp });
        }
      }
    }
  });

  bus.on('alarms', async (ids: number[]) => {
    const campus = [...conns].filter((c) => c.campus);
    const watchers = [...conns].filter((c) => c.alarms);
    if (campus.length && ids.length) {
      for (const a of await alarmsByIds(ctx.db, ids)) {
        const cp: CampusPush = { id: a.device_id, event: 'alarm' };
        for (const c of campus)
          if (c.campus?.devices.has(a.device_id)) push(c, { channel: 'campus', data: cp });
      }
    }
    if (!watchers.length || !ids.length) return;
    const rows = await alarmsByIds(ctx.db, ids);
    for (const c of watchers) {
      for (const a of rows) {
        if (c.alarms === 'all' || c.alarms!.has(a.device_id)) push(c, { channel: 'alarms', data: a });
      }
    }
  });

  // New comments (reviews page, terminals): pushed to whoever sees the toilet or the terminal.
  bus.on(
    'comments',
    async (items: { id: number; toilet_id?: number | null; equipment_id?: number | null }[]) => {
      const watchers = [...conns].filter((c) => c.comments);
      if (!watchers.length || !Array.isArray(items) || !items.length) return;
      const ids = items.map((i) => Number(i?.id)).filter((id) => Number.isSafeInteger(id) && id > 0);
      if (!ids.length) return;
      // The row itself says where the comment belongs; the event's copy is only a hint.
      const rows = await commentsByIds(ctx.db, ids).catch((err: unknown) => {
        app.log.warn({ err }, 'comment push failed');
        return [];
      });
      for (const c of watchers) {
        const vis = c.comments!;
        for (const row of rows) {
          const seen =
            vis === 'all' ||
            (row.toilet_id !== null && vis.toilets.has(row.toilet_id)) ||
            (row.equipment_id !== null && vis.devices.has(row.equipment_id));
          if (seen) push(c, { channel: 'comments', data: row });
        }
      }
    },
  );

  // Devices placed or removed: the organisation's subscribers follow the new set at once.
  bus.on('placements', (orgIds: number[]) => {
    if (!Array.isArray(orgIds)) return;
    for (const c of conns) {
      if (!c.campus || !c.caller || !orgIds.includes(c.campus.orgId)) continue;
      const caller = c.caller;
      void campusSubscription(caller, c.campus.orgId).then(
        (next) => {
          if (c.campus) c.campus = next;
        },
        () => (c.campus = null),
      );
    }
  });

  // A user's unread count changed: only that user's own sockets hear it.
  bus.on('messages', (items: { user_id: number; unread: number }[]) => {
    if (!Array.isArray(items)) return;
    for (const m of items) {
      if (!Number.isSafeInteger(m?.user_id) || typeof m.unread !== 'number') continue;
      const data: MessagesPush = { unread: m.unread };
      for (const c of conns) {
        if (c.messages && c.caller?.id === m.user_id) push(c, { channel: 'messages', data });
      }
    }
  });

  // A user's rules fired: only that user's own sockets hear it (the rules are theirs alone).
  bus.on('rule-hits', (items: (RuleFiredPush & { user_id: number })[]) => {
    if (!Array.isArray(items)) return;
    for (const { user_id, ...data } of items) {
      if (!Number.isSafeInteger(user_id) || !Number.isSafeInteger(data.id)) continue;
      for (const c of conns) {
        if (c.rules && c.caller?.id === user_id) push(c, { channel: 'rules', data });
      }
    }
  });

  bus.on('offline', (devices: { id: number; kind: string; time: number }[]) => {
    for (const d of devices) {
      const p: DevicePush = { id: d.id, kind: d.kind, time: d.time, online: false, warning: null, data: {} };
      for (const c of conns) {
        if (c.devices.has(d.id)) push(c, { channel: 'device', key: d.id, data: p });
        const vis = c.kinds.get(d.kind);
        if (vis && (vis === 'all' || vis.has(d.id))) push(c, { channel: 'devices', key: d.kind, data: p });
      }
    }
  });

  // Visibility changes (bindings) and ended sessions reach open sockets within a minute.
  const refresher = setInterval(() => {
    for (const c of conns) {
      if (!c.caller || Date.now() - c.refreshed <= REFRESH_MS) continue;
      void ctx.sessions.resolve(c.token).then(
        (r) => (r.ok ? refresh(c) : c.ws.close(4001, 'session ended')),
        () => {},
      );
    }
  }, REFRESH_MS / 4);
  refresher.unref();

  app.addHook('onClose', async () => {
    clearInterval(flush);
    clearInterval(refresher);
    for (const c of conns) c.ws.close(1001, 'server shutting down');
  });
}
