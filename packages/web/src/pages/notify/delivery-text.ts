import { DELIVERY_CHANNELS, DELIVERY_STATUS, DOCKING_PUSH_KINDS, type DeliveryRow } from '@se/core';
import { select } from '../../components/list/index.ts';

export const STATUS_COLORS: Record<string, string> = {
  pending: 'gold',
  sending: 'processing',
  queued: 'gold',
  sent: 'success',
  failed: 'error',
};

export const channelText = (c: string) => DELIVERY_CHANNELS[c as keyof typeof DELIVERY_CHANNELS] ?? c;
export const statusText = (s: string) => DELIVERY_STATUS[s as keyof typeof DELIVERY_STATUS] ?? s;

/**
 * A delivery's state as it really stands. A mail reads 已排队 until an SMTP server took it
 * (waiting for its turn or a retry, or kept in the outbox), 已发送 once it did, 失败（原因）
 * when it gave up.
 */
export function deliveryStatusText(d: Pick<DeliveryRow, 'channel' | 'status' | 'last_error'>): string {
  if (d.status === 'failed') return d.last_error ? `失败（${d.last_error}）` : '失败';
  if (d.channel === 'email' && d.status !== 'sent') return DELIVERY_STATUS.queued;
  return statusText(d.status);
}
export const pushKindText = (k: string) =>
  k === 'weekly' ? '周报' : (DOCKING_PUSH_KINDS[k as keyof typeof DOCKING_PUSH_KINDS] ?? k);

/** One line on a delivery's state: when it went, or why not and when it tries again. */
export function deliveryDetail(d: DeliveryRow): string {
  if (d.status === 'sent') return d.sent_at ? `发送于 ${d.sent_at}` : '已发送';
  const parts: string[] = [];
  // A failure's reason is in its status text already.
  if (d.last_error && d.status !== 'failed') parts.push(d.last_error);
  if (d.attempts) parts.push(`已尝试 ${d.attempts} 次`);
  if (d.status === 'pending' && d.next_attempt_at) parts.push(`下次重试 ${d.next_attempt_at}`);
  if (d.status === 'failed') parts.push('已停止重试');
  return parts.join('，') || statusText(d.status);
}

/** Only what waits or failed can be sent again; in-app messages are delivered at once. */
export const canRetry = (d: DeliveryRow) =>
  d.channel !== 'inbox' && (d.status === 'failed' || d.status === 'pending' || d.status === 'queued');

/** A list's delivery state filter: 全部状态 or one of `options`, applied when chosen. */
export const statusFilter = <V extends string>(label: string, options: { value: V; label: string }[]) =>
  select({ options, placeholder: '全部状态', label, width: 140, instant: true });
