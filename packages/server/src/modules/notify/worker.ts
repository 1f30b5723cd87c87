import crypto from 'node:crypto';
import { DELIVERY_BACKOFF_MS, DELIVERY_MAX_ATTEMPTS } from '@se/core';
import type { AppContext } from '../../context.ts';
import { postJson, WebhookError } from '../docking/webhook.ts';
import * as repo from './repo.ts';

const SEND_TIMEOUT_MS = 10_000;
/** Longer than any send can take: a row still leased after it was abandoned mid-send. */
const LEASE_MS = 120_000;
const USER_AGENT = 'smart-env-console/3.9.3';

/** `sha256=<hex>` of HMAC-SHA256 over the exact body bytes, keyed with the interface's token. */
export function signBody(body: string, token: string): string {
  return `sha256=${crypto.createHmac('sha256', token).update(body).digest('hex')}`;
}

interface Outcome {
  ok: boolean;
  code: number | null;
  error?: string;
  /** A mail kept in the outbox (no SMTP): neither sent nor failed. */
  queued?: boolean;
}

/** Why a mail in the outbox was not sent (the delivery's reason while it is 已排队). */
export const NO_SMTP = '未配置 SMTP 服务器，邮件保存在发件箱，未发出';

/**
 * Sends due deliveries from the database with bounded concurrency, retrying failures with
 * back-off (DELIVERY_BACKOFF_MS) until DELIVERY_MAX_ATTEMPTS. State lives in the rows, so a
 * restart resumes where it stopped, and several server copies share the work (SKIP LOCKED).
 * Callers never wait for it: they insert rows and kick().
 */
export class DeliveryWorker {
  private running: Promise<number> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private ctx: AppContext,
    private opts: { concurrency?: number; backoffMs?: readonly number[] } = {},
  ) {}

  /** Polls for due rows (retries, other copies' rows) every `everyMs`. */
  start(everyMs = 5_000) {
    this.timer = setInterval(() => this.kick(), everyMs);
    this.timer.unref();
    this.kick();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => {});
  }

  /** Runs soon, without waiting; a kick during a run makes one more run. */
  kick() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err) => {
        this.ctx.log.warn({ err }, 'delivery worker failed');
        return 0;
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Sends everything due now; answers how many were attempted. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.runOnce();
      total += n;
      if (n === 0 || this.stopped) return total;
    }
  }

  /** One batch: lease up to `concurrency` due rows and send them in parallel. */
  async runOnce(): Promise<number> {
    const limit = this.opts.concurrency ?? 8;
    const due = await this.ctx.db.transaction((tx) => repo.claimDue(tx, limit, LEASE_MS));
    await Promise.all(due.map((d) => this.attempt(d)));
    return due.length;
  }

  private async attempt(d: repo.DueDelivery) {
    let out: Outcome;
    try {
      out = await this.send(d);
    } catch (err) {
      out = {
        ok: false,
        code: null,
        error: err instanceof WebhookError ? err.message : `发送失败：${(err as Error).message}`,
      };
    }
    if (out.queued) {
      await repo.markQueued(this.ctx.db, d.id, NO_SMTP);
      return;
    }
    if (out.ok) {
      await repo.markSent(this.ctx.db, d.id, out.code);
      return;
    }
    const backoff = this.opts.backoffMs ?? DELIVERY_BACKOFF_MS;
    const retryIn = d.attempts < DELIVERY_MAX_ATTEMPTS ? (backoff[d.attempts - 1] ?? null) : null;
    await repo.markFailed(this.ctx.db, d.id, out.error ?? '发送失败', out.code, retryIn);
  }

  private async send(d: repo.DueDelivery): Promise<Outcome> {
    const allowPrivate = this.ctx.config.allowPrivateWebhooks;
    switch (d.channel) {
      case 'email': {
        const p = d.payload as { subject: string; text: string; html?: string };
        const via = await this.ctx.mailer.sendNow({
          to: d.target,
          subject: p.subject,
          body: p.text,
          html: p.html,
        });
        // Sent only once an SMTP server accepted it; the outbox alone is a queue, not a delivery.
        return via === 'smtp' ? { ok: true, code: 250 } : { ok: false, code: null, queued: true };
      }
      case 'docking': {
        if (!d.docking_url || !d.docking_token) return { ok: false, code: null, error: '对接接口已删除' };
        const body = JSON.stringify(d.payload);
        const r = await postJson(
          d.docking_url,
          d.payload,
          {
            'x-signature': signBody(body, d.docking_token),
            'x-timestamp': String(Date.now()),
            'x-delivery-id': String(d.id),
            'x-event': d.kind,
            'user-agent': USER_AGENT,
          },
          { timeoutMs: SEND_TIMEOUT_MS, allowPrivate },
        );
        const ok = r.status >= 200 && r.status < 300;
        return { ok, code: r.status, error: ok ? undefined : `对方返回 HTTP ${r.status}` };
      }
      case 'wecom':
      case 'dingtalk': {
        const r = await postJson(
          d.target,
          d.payload,
          { 'user-agent': USER_AGENT },
          { timeoutMs: SEND_TIMEOUT_MS, allowPrivate, readBody: true },
        );
        if (r.status < 200 || r.status >= 300)
          return { ok: false, code: r.status, error: `对方返回 HTTP ${r.status}` };
        // Both robots answer mistakes (bad key, rate limit) with HTTP 200 and an errcode.
        const err = robotError(r.body ?? '');
        return err ? { ok: false, code: r.status, error: err } : { ok: true, code: r.status };
      }
      default:
        return { ok: false, code: null, error: `未知的发送渠道 ${d.channel}` };
    }
  }
}

function robotError(body: string): string | null {
  try {
    const j = JSON.parse(body) as { errcode?: number; errmsg?: string };
    if (typeof j.errcode === 'number' && j.errcode !== 0)
      return `机器人返回错误 ${j.errcode}：${j.errmsg ?? ''}`;
  } catch {
    /* not JSON: the HTTP status decides */
  }
  return null;
}
