import crypto from 'node:crypto';
import type { z } from 'zod';
import type { addDockingBody, updateDockingBody, DockingInterface } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { create, mutate } from '../audit/mutate.ts';
import { notifierOf } from '../notify/runtime.ts';
import * as repo from './repo.ts';
import { postJson, WebhookError } from './webhook.ts';
import { assertCanManage, managedRow, managedUserId } from '../access/users.ts';

const TEST_TIMEOUT_MS = 5_000;

/** Loads an interface whose owner the caller manages; anything else is "not found". */
async function load(ctx: AppContext, caller: Caller, id: number): Promise<DockingInterface> {
  return managedRow(ctx, caller, await repo.findDocking(ctx.db, id), '对接接口不存在');
}

export async function list(
  ctx: AppContext,
  caller: Caller,
  q: { target_user_id?: number; keywords?: string; token?: string; page: number; page_size: number },
) {
  const userId = await managedUserId(ctx, caller, q.target_user_id);
  const r = await repo.listDocking(ctx.db, {
    userId,
    keywords: q.keywords || undefined,
    token: q.token || undefined,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export const get = load;

export async function add(ctx: AppContext, caller: Caller, b: z.output<typeof addDockingBody>, ip: string) {
  const userId = await managedUserId(ctx, caller, b.target_user_id);
  const token = b.token || crypto.randomBytes(24).toString('base64url');
  const id = await create(ctx, caller, ip, {
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
    audit: { action: 'docking.add', entity: 'docking_interface', targetUserId: userId },
    after: { name: b.name, url: b.url },
  });
  pushesChanged(ctx);
  return load(ctx, caller, id);
}

export async function update(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof updateDockingBody>,
  ip: string,
) {
  const d = await load(ctx, caller, b.id);
  if (b.user_id !== undefined && b.user_id !== d.user_id) await assertCanManage(ctx, caller, b.user_id);
  const m = await mutate(ctx, caller, ip, {
    row: d,
    patch: {
      name: b.name,
      url: b.url,
      token: b.token || undefined,
      user_id: b.user_id,
      is_delete: b.is_delete,
      push_reports: b.push_reports,
      push_alarms: b.push_alarms,
      push_comments: b.push_comments,
    },
    table: repo.DOCKING,
    audit: {
      action: b.is_delete ? 'docking.delete' : 'docking.update',
      entity: 'docking_interface',
      entityId: d.id,
      targetUserId: d.user_id,
    },
    secret: ['token'],
  });
  if (m.changed) pushesChanged(ctx);
  if (b.is_delete) return { ...d, is_delete: true };
  return load(ctx, caller, d.id);
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
