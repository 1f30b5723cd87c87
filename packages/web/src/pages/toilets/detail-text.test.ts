import { describe, expect, it } from 'vitest';
import type { DevicePush, LiveDevice, ToiletDetail } from '@se/core';
import {
  applyDetailPush,
  commentUrl,
  displayUrl,
  liveIdsOf,
  occupancyPercent,
  openingHoursText,
  partsInOrder,
  statusChangeText,
} from './detail-text.ts';

const device = (id: number, kind: string, latest: Record<string, unknown> = {}): LiveDevice => ({
  id,
  kind,
  ser_num: `S${id}`,
  desc: '',
  location: '',
  time: 1_000,
  online: true,
  warning: 0,
  star_count: 0,
  star_level: 0,
  latest,
});

const detail = {
  gateway: device(1, 'gateway', { male_occupy: 1, nh3: 0.1 }),
  sensors: [device(2, 'sensor', { nh3: 0.3 })],
  devices: [device(3, 'jwb')],
} as unknown as ToiletDetail;

const push = (
  id: number,
  time: number,
  data: Record<string, unknown>,
  warning: number | null = null,
): DevicePush => ({
  id,
  kind: 'gateway',
  time,
  online: true,
  warning,
  data,
});

describe('toilet detail texts', () => {
  it("points the QR code at the public review page with the toilet's public id", () => {
    expect(commentUrl('https://wc.example.cn', 'q7Xk2bN9cR4tV1mZ8wYs3A')).toBe(
      'https://wc.example.cn/add-comment?toilet_id=q7Xk2bN9cR4tV1mZ8wYs3A',
    );
  });

  it('builds the display address with the token escaped', () => {
    expect(displayUrl('http://h', 'a+b/c')).toBe('http://h/eternal-page?token=a%2Bb%2Fc');
  });

  it('says what a status change did', () => {
    expect(statusChangeText({ flag: 1, on: true })).toBe('设为清洁中');
    expect(statusChangeText({ flag: 2, on: false })).toBe('取消维修中');
  });

  it('puts faulty parts first, then by type', () => {
    const parts = [
      { id: 1, type: 2, state: 0 },
      { id: 2, type: 0, state: 0 },
      { id: 3, type: 5, state: 1 },
    ];
    expect(partsInOrder(parts).map((p) => p.id)).toEqual([3, 2, 1]);
  });

  it('reads opening hours, all day and past midnight', () => {
    expect(openingHoursText('00:00', '23:59')).toBe('全天开放');
    expect(openingHoursText('06:00', '22:30')).toBe('06:00–22:30');
    expect(openingHoursText('18:00', '02:00')).toBe('18:00–02:00（次日）');
  });

  it('caps occupancy at 100% and has none without cubicles', () => {
    expect(occupancyPercent(3, 4)).toBe(75);
    expect(occupancyPercent(9, 4)).toBe(100);
    expect(occupancyPercent(null, 4)).toBe(0);
    expect(occupancyPercent(1, 0)).toBeNull();
  });
});

describe('applyDetailPush', () => {
  it('merges a newer gateway report into the gateway latest values', () => {
    const next = applyDetailPush(detail, push(1, 2_000, { male_occupy: 3 }));
    expect(next.gateway?.latest).toEqual({ male_occupy: 3, nh3: 0.1 });
    expect(next.gateway?.time).toBe(2_000);
    expect(next.sensors).toBe(detail.sensors);
  });

  it('lets an older report fill only what is missing', () => {
    const next = applyDetailPush(detail, push(2, 500, { nh3: 9, h2s: 0.01 }));
    expect(next.sensors[0]!.latest).toEqual({ nh3: 0.3, h2s: 0.01 });
    expect(next.sensors[0]!.time).toBe(1_000);
  });

  it('updates a placed device warning bits', () => {
    expect(applyDetailPush(detail, push(3, 2_000, {}, 32768)).devices[0]!.warning).toBe(32768);
  });

  it('ignores pushes about other devices', () => {
    expect(applyDetailPush(detail, push(99, 2_000, { nh3: 1 }))).toBe(detail);
    expect(liveIdsOf(detail)).toEqual([1, 2, 3]);
    expect(liveIdsOf(undefined)).toEqual([]);
  });
});
