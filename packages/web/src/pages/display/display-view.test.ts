import { describe, expect, it } from 'vitest';
import { CODE, type DisplayData } from '@se/core';
import { INITIAL_DISPLAY, afterPoll, clockText, freeOf, nextPollSeconds } from './display-view.ts';

const data = { refresh_seconds: 15, server_time: 10_000 } as DisplayData;
const ok = { code: CODE.ok, message: '成功', data };

describe('the display screen polling', () => {
  it('shows an answer and keeps the server clock offset', () => {
    const s = afterPoll(INITIAL_DISPLAY, ok, 4_000);
    expect(s).toMatchObject({ data, invalid: null, stale: false, clockOffset: 6_000 });
    expect(nextPollSeconds(s)).toBe(15);
  });

  it('keeps the last values through a network failure or a 429, marked stale', () => {
    const s = afterPoll(afterPoll(INITIAL_DISPLAY, ok, 0), null, 0);
    expect(s.data).toBe(data);
    expect(s.stale).toBe(true);
    const limited = afterPoll(
      afterPoll(INITIAL_DISPLAY, ok, 0),
      { code: CODE.rateLimited, message: '', data: null as never },
      0,
    );
    expect(limited).toMatchObject({ data, stale: true });
    expect(nextPollSeconds(limited)).toBe(20);
  });

  it('drops the values and says 显示令牌已失效 once the token is revoked', () => {
    const s = afterPoll(
      afterPoll(INITIAL_DISPLAY, ok, 0),
      { code: CODE.forbidden, message: '显示令牌已失效', data: null as never },
      0,
    );
    expect(s).toMatchObject({ data: null, invalid: '显示令牌已失效' });
    expect(nextPollSeconds(s)).toBe(60);
    // A later good answer (a token restored by a backup, say) brings the screen back.
    expect(afterPoll(s, ok, 0).invalid).toBeNull();
  });

  it('bounds the poll interval the server asks for to 10–30 s', () => {
    const fast = afterPoll(INITIAL_DISPLAY, { ...ok, data: { ...data, refresh_seconds: 1 } }, 0);
    expect(nextPollSeconds(fast)).toBe(10);
  });

  it('counts free cubicles and reads the clock in UTC+8', () => {
    expect(freeOf({ key: 'male', label: '男', count: 4, occupy: 5, times: null })).toBe(0);
    expect(freeOf({ key: 'male', label: '男', count: 4, occupy: null, times: null })).toBeNull();
    expect(clockText(Date.UTC(2024, 0, 1, 16, 5, 9))).toBe('00:05:09');
  });
});
