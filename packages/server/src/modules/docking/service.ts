import crypto from 'node:crypto';
import type { z } from 'zod';
import type { addDockingBody, updateDockingBody } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { notifierOf } from '../notify/runtime.ts';
import * as repo from './repo.ts';
import { postJson, WebhookError } from './webhook.ts';
import { assertCanManage } from '../access/users.ts';
import { owned } from '../owned/service.ts';

const TEST_TIMEOUT_MS = 5_000;

/** Interfaces of an owner; one whose owner the caller does not manage is "not found". */
const interfaces = owned({
  missing: '对接接口不存在',
  action: 'docking',
  entity: 'docking_interface',
  table: repo.DOCKING,
  find: repo.findDocking,
  list: repo.listDocking,
});
const load = interfaces.load;

export function list(
  ctx: AppContext,
  caller: Caller,
  q: { target_user_id?: number; keywords?: string; token?: string; page: number; page_size: number },
) {
  return interfaces.list(ctx, caller, q, { token: q.token || undefined });
}

export const get = load;

export async function add(ctx: AppContext, caller: Caller, b: z.output<typeof addDockingBody>, ip: string) {
  const token = b.token || crypto.randomBytes(24).toString('base64url');
  const d = await interfaces.add(ctx, caller, ip, b.target_user_id, (userId) => ({
    insert: (tx) =>
      repo.insertDocking(tx, {
        name: b.name,
        url: b.url,
        token,
        user_id: userId,
        push_reports: b.push_reports,
        push_alarms: b.push_alarms,
        push_comments: b.push_comments,
      }),
    after: { name: b.name, url: b.url },
  }));
  pushesChanged(ctx);
  return d;
}

export async function update(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof updateDockingBody>,
  ip: string,
) {
  const patch = {
    name: b.name,
    url: b.url,
    token: b.token || undefined,
    user_id: b.user_id,
    is_delete: b.is_delete,
    push_reports: b.push_reports,
    push_alarms: b.push_alarms,
    push_comments: b.push_comments,
  };
  const m = await interfaces.edit(ctx, caller, ip, b.id, () => patch, {
    secret: ['token'],
    // Handing an interface to another account takes the right to manage that one too.
    check: async (c) => {
      if (c.after.user_id !== undefined) await assertCanManage(ctx, caller, c.after.user_id);
    },
  });
  if (m.change.changed) pushesChanged(ctx);
  return m.row;
}

/** Opt-ins changed: the push side re-reads whether anyone wants reports. */
function pushesChanged(ctx: AppContext) {
  notifierOf(ctx)
    ?.pushes.refresh()
    .catch(() => {});
}

/** POSTs a sample payload with the interface's token and reports status and latency. */
export async function sendTest(ctx: AppContext, caller: Caller, id: number) {
  const d = await load(ctx, caller, id);
  const sample = {
    type: 'test',
    time: Date.now(),
    source: '智慧环境管理系统',
    interface: { id: d.id, name: d.name },
    data: { message: '这是一条测试数据', nh3: 0.05, h2s: 0.01, voc: 1.2, pm25: 35, co2: 600 },
  };
  const t0 = performance.now();
  try {
    const r = await postJson(
      d.url,
      sample,
      { authorization: d.token, 'x-token': d.token, 'user-agent': 'smart-env-console/3.9.3' },
      { timeoutMs: TEST_TIMEOUT_MS, allowPrivate: ctx.config.allowPrivateWebhooks },
    );
    const ok = r.status >= 200 && r.status < 300;
    return { ok, status: r.status, latency_ms: r.latencyMs, error: ok ? null : `对方返回 HTTP ${r.status}` };
  } catch (err) {
    const msg = err instanceof WebhookError ? err.message : '请求失败';
    return { ok: false, status: null, latency_ms: Math.round(performance.now() - t0), error: msg };
  }
}
