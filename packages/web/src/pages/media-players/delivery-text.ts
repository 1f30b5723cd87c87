import { DELIVERY_LABELS, type MediaPlayerRow } from '@se/core';

type Delivery = Pick<MediaPlayerRow, 'delivery_state' | 'delivery_progress' | 'delivery_error'>;

/** What a screen did with its last manifest: 已下发 / 下载中 n% / 播放中 / 失败（原因）. */
export function deliveryText(d: Delivery): string {
  switch (d.delivery_state) {
    case null:
      return '未下发';
    case 'downloading':
      return `${DELIVERY_LABELS.downloading} ${Math.round(d.delivery_progress)}%`;
    case 'failed':
      return `${DELIVERY_LABELS.failed}（${d.delivery_error || '未知原因'}）`;
    default:
      return DELIVERY_LABELS[d.delivery_state];
  }
}

export const deliveryColor = (d: Delivery) =>
  ({ sent: 'blue', downloading: 'processing', ready: 'cyan', playing: 'green', failed: 'red' })[
    d.delivery_state ?? 'sent'
  ] ?? 'default';

/** Weekday bits as 一、三、五 (每天 for all seven). */
export function weekdaysText(bits: number): string {
  if ((bits & 127) === 127) return '每天';
  return ['一', '二', '三', '四', '五', '六', '日']
    .filter((_, i) => bits & (1 << i))
    .map((d) => `周${d}`)
    .join('、');
}

/** A schedule's window: 全天 or 08:00–12:00 (次日 when it runs past midnight). */
export function windowText(from: string, to: string): string {
  if (from === to) return '全天';
  return `${from}–${to < from ? '次日 ' : ''}${to}`;
}

export const secondsText = (s: number) =>
  s >= 3600
    ? `${Math.floor(s / 3600)} 小时 ${Math.round((s % 3600) / 60)} 分`
    : s >= 60
      ? `${Math.floor(s / 60)} 分 ${Math.round(s % 60)} 秒`
      : `${Math.round(s)} 秒`;
