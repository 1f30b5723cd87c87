import { describe, expect, it } from 'vitest';
import { deliveryText, secondsText, weekdaysText, windowText } from './delivery-text.ts';

const d = (delivery_state: never | null | string, delivery_progress = 0, delivery_error = '') =>
  ({ delivery_state, delivery_progress, delivery_error }) as Parameters<typeof deliveryText>[0];

describe('delivery text', () => {
  it('says what a screen did with its manifest', () => {
    expect(deliveryText(d(null))).toBe('未下发');
    expect(deliveryText(d('sent'))).toBe('已下发');
    expect(deliveryText(d('downloading', 42.4))).toBe('下载中 42%');
    expect(deliveryText(d('playing'))).toBe('播放中');
    expect(deliveryText(d('failed', 0, '存储空间不足'))).toBe('失败（存储空间不足）');
  });
  it('reads weekdays, windows and durations', () => {
    expect(weekdaysText(127)).toBe('每天');
    expect(weekdaysText(0b0010101)).toBe('周一、周三、周五');
    expect(windowText('08:00', '08:00')).toBe('全天');
    expect(windowText('22:00', '06:00')).toBe('22:00–次日 06:00');
    expect(secondsText(75)).toBe('1 分 15 秒');
  });
});
