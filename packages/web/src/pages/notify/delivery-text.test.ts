import type { DeliveryRow } from '@se/core';
import { describe, expect, it } from 'vitest';
import { canRetry, deliveryDetail, deliveryStatusText } from './delivery-text.ts';

const row = (over: Partial<DeliveryRow>): DeliveryRow => ({
  id: 1,
  notification_id: 1,
  object_id: 1,
  object_name: '值班邮箱',
  docking_id: null,
  channel: 'email',
  kind: 'rule',
  target: 'duty@example.com',
  status: 'pending',
  attempts: 0,
  next_attempt_at: null,
  last_error: null,
  response_code: null,
  sent_at: null,
  created_at: '2026-11-25 10:00:00',
  ...over,
});

describe('a mail as it really stands', () => {
  it('reads 已排队 while waiting, retrying or kept in the outbox, never 已发送', () => {
    expect(deliveryStatusText(row({ status: 'pending' }))).toBe('已排队');
    expect(deliveryStatusText(row({ status: 'sending' }))).toBe('已排队');
    const outbox = row({ status: 'queued', last_error: '未配置 SMTP 服务器，邮件保存在发件箱，未发出' });
    expect(deliveryStatusText(outbox)).toBe('已排队');
    expect(deliveryDetail(outbox)).toBe('未配置 SMTP 服务器，邮件保存在发件箱，未发出');
    expect(canRetry(outbox)).toBe(true);
  });

  it('reads 已发送 once SMTP took it and 失败（原因） when it gave up', () => {
    expect(deliveryStatusText(row({ status: 'sent', sent_at: '2026-11-25 10:00:05' }))).toBe('已发送');
    const failed = row({ status: 'failed', attempts: 6, last_error: '发送失败：550 no such user' });
    expect(deliveryStatusText(failed)).toBe('失败（发送失败：550 no such user）');
    expect(deliveryDetail(failed)).toBe('已尝试 6 次，已停止重试');
  });

  it('keeps the other channels’ own words', () => {
    expect(deliveryStatusText(row({ channel: 'docking', status: 'pending' }))).toBe('等待发送');
    expect(deliveryStatusText(row({ channel: 'inbox', status: 'sent' }))).toBe('已发送');
  });
});
