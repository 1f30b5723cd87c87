import { STATUS_FILTER } from '@se/core';
import { describe, expect, it } from 'vitest';
import { lastReportText, lastReportTitle, maskToken, statusBits, warningTags } from './device-text.ts';

const now = Date.UTC(2025, 5, 1, 12, 0, 0);
const ago = (ms: number) => now - ms;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('最后上报', () => {
  it('says 从未上报 before the first report', () => {
    expect(lastReportText(null, now)).toBe('从未上报');
    expect(lastReportTitle(null)).toContain('尚未上报');
  });

  it('counts minutes under an hour, never fewer than one', () => {
    expect(lastReportText(ago(0), now)).toBe('1 分钟前');
    expect(lastReportText(ago(59_999), now)).toBe('1 分钟前');
    expect(lastReportText(ago(2 * MIN), now)).toBe('2 分钟前');
    expect(lastReportText(ago(HOUR - 1), now)).toBe('59 分钟前');
    // A device clock slightly ahead of the browser's.
    expect(lastReportText(now + 5000, now)).toBe('1 分钟前');
  });

  it('counts hours from one hour to under a day', () => {
    expect(lastReportText(ago(HOUR), now)).toBe('1 小时前');
    expect(lastReportText(ago(5 * HOUR + 59 * MIN), now)).toBe('5 小时前');
    expect(lastReportText(ago(DAY - 1), now)).toBe('23 小时前');
  });

  it('counts days from one day on', () => {
    expect(lastReportText(ago(DAY), now)).toBe('1 天前');
    expect(lastReportText(ago(7 * DAY + HOUR), now)).toBe('7 天前');
  });

  it('shows the exact time in UTC+8 on hover', () => {
    expect(lastReportTitle(now)).toBe('2025-06-01 20:00:00');
  });
});

describe('dispenser warning tags', () => {
  it('decodes every warning bit into its tag', () => {
    expect(warningTags(0)).toEqual([]);
    expect(warningTags(null)).toEqual([]);
    expect(warningTags(32768)).toEqual(['缺液']);
    expect(warningTags(16384 | 4)).toEqual(['缺水', '断水']);
    expect(warningTags(32768 | 16384 | 1024 | 8192 | 8 | 4)).toEqual([
      '缺液',
      '缺水',
      '雾化器',
      '风扇',
      '清洗',
      '断水',
    ]);
  });

  it('ignores bits that are not warnings', () => {
    expect(warningTags(1 | 2 | 16 | 1024)).toEqual(['雾化器']);
  });

  it("reads a paper dispenser's bits as its own (缺纸, 卡纸 …), not a fragrance dispenser's", () => {
    expect(warningTags(1, 'paper_machine')).toEqual(['缺纸']);
    expect(warningTags(1 | 2 | 4 | 8 | 16 | 32, 'paper_machine')).toEqual([
      '缺纸',
      '卡纸',
      '纸量低',
      '电机故障',
      '电量低',
      '机盖未关',
    ]);
    expect(warningTags(32768, 'paper_machine')).toEqual([]);
  });
});

describe('online filter', () => {
  it('sends the status bits of SPEC §4, none for 全部', () => {
    expect(statusBits('online')).toBe(STATUS_FILTER.online);
    expect(statusBits('offline')).toBe(1 << 18);
    expect(statusBits('all')).toBeUndefined();
  });
});

describe('token mask', () => {
  it('keeps the ends of a long token and hides the middle', () => {
    expect(maskToken('abcd1234efgh5678')).toBe('abcd••••••••5678');
    expect(maskToken('short')).toBe('•••••');
  });
});
