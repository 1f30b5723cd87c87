import type { AlarmRow, CommentFeedRow, DevicePush } from '@se/core';
import { DATACENTER_LIMITS } from '@se/core';
import { describe, expect, it } from 'vitest';
import { sampleOverview } from './fixtures.ts';
import { applyAlarm, applyComment, applyDevicePushes, applyMapPushes } from './live-state.ts';

const gw = (id: number, data: Record<string, unknown>, time = Date.UTC(2025, 5, 1, 3, 30)): DevicePush => ({
  id,
  kind: 'gateway',
  time,
  online: true,
  warning: null,
  data,
});

describe('dashboard live state', () => {
  it('moves occupancy, its sums and the order when a gateway reports', () => {
    const ov = sampleOverview();
    const next = applyDevicePushes(ov, [gw(12, { male_occupy: 6 })]);
    expect(next.occupancy.list.map((r) => r.toilet_id)).toEqual([2, 1]);
    expect(next.occupancy.list[0]).toMatchObject({ online: true, male: { count: 6, occupy: 6 } });
    expect(next.occupancy.occupied).toBe(10);
    expect(next.occupancy.cubicles).toBe(14);
    // The snapshot it came from is untouched.
    expect(ov.occupancy.occupied).toBe(5);
  });

  it("adds uses to today's visitors and their hour, and ignores another day", () => {
    const ov = sampleOverview();
    const next = applyDevicePushes(ov, [
      gw(99, { male_times: 2, female_times: 1 }),
      gw(99, { others_times: 1 }, Date.UTC(2025, 5, 1, 5, 10)),
    ]);
    expect(next.totals.visitors_today).toBe(16);
    expect(next.visitors.find((v) => v.hour === Date.UTC(2025, 5, 1, 3))).toEqual({
      hour: Date.UTC(2025, 5, 1, 3),
      male: 6,
      female: 3,
      others: 1,
    });
    expect(next.visitors.at(-1)).toEqual({ hour: Date.UTC(2025, 5, 1, 5), male: 0, female: 0, others: 1 });
    // 16:00 UTC is the next day in UTC+8.
    const late = applyDevicePushes(next, [gw(99, { male_times: 5 }, Date.UTC(2025, 5, 1, 16, 5))]);
    expect(late.visitors).toBe(next.visitors);
    expect(late.totals.visitors_today).toBe(21);
  });

  it('rescores air with the core formula and moves the level counts', () => {
    const ov = sampleOverview();
    const next = applyDevicePushes(ov, [gw(11, { nh3: 0.02 })]);
    expect(next.air.list.find((r) => r.toilet_id === 1)).toMatchObject({
      level: 'good',
      score: 1,
      gas_levels: { nh3: 'good' },
    });
    expect(next.air.levels).toEqual({ good: 2, fair: 0, poor: 0 });
    const worse = applyDevicePushes(ov, [gw(12, { co2: 5000 })]);
    // CO₂ weighs nothing in the score, but past its high threshold the toilet is poor.
    expect(worse.air.list.find((r) => r.toilet_id === 2)!.level).toBe('poor');
    expect(worse.air.levels).toEqual({ good: 0, fair: 0, poor: 2 });
  });

  it('follows dispensers: liquid, order and the lack-of-liquid count', () => {
    const ov = sampleOverview();
    const refill: DevicePush = {
      id: 21,
      kind: 'jwb',
      time: 1,
      online: true,
      warning: 0,
      data: { liquid: 540 },
    };
    const next = applyDevicePushes(ov, [refill]);
    expect(next.liquid.lacking).toBe(0);
    expect(next.liquid.list.map((r) => [r.id, r.liquid])).toEqual([
      [22, 500],
      [21, 540],
    ]);
    // Unknown devices and reports without anything shown change nothing.
    const same = applyDevicePushes(ov, [{ ...refill, id: 999 }, gw(11, { pot_int: 60 })]);
    expect(same.liquid).toBe(ov.liquid);
    expect(same.occupancy.list[0]!.male).toEqual(ov.occupancy.list[0]!.male);
  });

  it('keeps the alarm feed bounded and the counts right through open, ack and close', () => {
    let ov = sampleOverview();
    const alarm = (id: number, status: string): AlarmRow => ({ ...ov.alarms[0]!, id, status });
    for (let i = 100; i < 100 + DATACENTER_LIMITS.alarms * 3; i++) ov = applyAlarm(ov, alarm(i, 'open'));
    expect(ov.alarms).toHaveLength(DATACENTER_LIMITS.alarms);
    expect(ov.alarms[0]!.id).toBe(100 + DATACENTER_LIMITS.alarms * 3 - 1);
    expect(ov.totals.alarms_open).toBe(1 + DATACENTER_LIMITS.alarms * 3);
    const top = ov.alarms[0]!.id;
    ov = applyAlarm(ov, alarm(top, 'acked'));
    expect(ov.totals.alarms_open).toBe(DATACENTER_LIMITS.alarms * 3);
    expect(ov.alarms[0]).toMatchObject({ id: top, status: 'acked' });
    const active = ov.totals.alarms_active;
    ov = applyAlarm(ov, alarm(top, 'closed'));
    expect(ov.totals.alarms_active).toBe(active - 1);
    // An old alarm outside the feed closing: counted by the next fetch, not guessed.
    const before = ov.totals;
    ov = applyAlarm(ov, alarm(1, 'closed'));
    expect(ov.totals).toEqual(before);
  });

  it('adds a comment of today to the feed, the day, the flags and the stars — once', () => {
    const ov = sampleOverview();
    const c: CommentFeedRow = {
      id: 501,
      toilet_id: 1,
      toilet_name: '东门公厕',
      equipment_id: null,
      star_level: 2,
      content: '有味道',
      badattitude: false,
      inefficiency: false,
      poorsanitary: false,
      smelly: true,
      created_at: '2025-06-01 12:00:00',
    };
    const next = applyComment(ov, c);
    expect(next.comments[0]).toBe(c);
    expect(next.totals.comments_today).toBe(2);
    expect(next.ratings.days.at(-1)).toEqual({ day: '2025-06-01', count: 2, avg: 3 });
    expect(next.ratings.flags.smelly).toBe(3);
    expect(next.ratings.stars).toEqual([0, 1, 0, 1, 0]);
    expect(applyComment(next, c)).toBe(next);
    let many = next;
    for (let i = 0; i < 100; i++) many = applyComment(many, { ...c, id: 1000 + i });
    expect(many.comments).toHaveLength(DATACENTER_LIMITS.comments);
  });

  it('turns map points online and offline with their gateways', () => {
    const point = (id: number, name: string, online: boolean, gateway_id: number | null) => ({
      id,
      name,
      lng: 1,
      lat: 1,
      pname: '',
      cityname: '',
      address: '',
      status: 0,
      online,
      gateway_id,
    });
    const map = {
      truncated: false,
      provinces: [],
      points: [point(1, 'a', false, 11), point(2, 'b', true, null)],
    };
    const next = applyMapPushes(map, [gw(11, {})]);
    expect(next.points.map((p) => p.online)).toEqual([true, true]);
    expect(applyMapPushes(next, [gw(11, {})])).toBe(next);
  });
});

describe('dashboard refetch on new gateways', () => {
  it('notices a gateway with readings that no list row shows', async () => {
    const { unknownGateway } = await import('./use-dashboard.ts');
    const ov = sampleOverview();
    expect(unknownGateway(ov, gw(99, { male_count: 2 }))).toBe(true);
    expect(unknownGateway(ov, gw(99, { nh3: 0.1 }))).toBe(true);
    expect(unknownGateway(ov, gw(11, { male_count: 2 }))).toBe(false);
    expect(unknownGateway(ov, gw(99, { male_times: 1 }))).toBe(false);
    expect(unknownGateway(ov, { ...gw(99, { liquid: 3 }), kind: 'jwb' })).toBe(false);
  });
});
