import type { DevicePush, DeviceRow, Page } from '@se/core';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyDevicePush, isDevicePush, patchDevicePage } from './device-push.ts';
import { deviceRow } from '../test-rows.ts';

const row = (id: number, over: Partial<DeviceRow> = {}): DeviceRow =>
  deviceRow({ id, ser_num: `GW${id}`, time: 1_000_000, type: 40, latest: { nh3: 0.1, co2: 500 }, ...over });

const push = (over: Partial<DevicePush> = {}): DevicePush => ({
  id: 2,
  kind: 'gateway',
  time: 2_000_000,
  online: true,
  warning: 8,
  data: { nh3: 0.4, warning: 8 },
  ...over,
});

const page = (): Page<DeviceRow> => ({ list: [row(1), row(2), row(3)], total: 3, page: 1, page_size: 10 });

describe('live list: a push applied to the cached page', () => {
  it("replaces only the pushed device's time, online state, warning and latest values", () => {
    const before = page();
    const after = patchDevicePage(before, push())!;
    expect(after).not.toBe(before);
    expect(after.list[0]).toBe(before.list[0]);
    expect(after.list[2]).toBe(before.list[2]);
    expect(after.list[1]).toMatchObject({
      time: 2_000_000,
      online: true,
      warning: 8,
      latest: { nh3: 0.4, co2: 500, warning: 8 },
    });
    // The cached page itself is not changed in place.
    expect(before.list[1]!.time).toBe(1_000_000);
  });

  it('returns the same page when the device is not on it, so nothing re-renders', () => {
    const before = page();
    expect(patchDevicePage(before, push({ id: 99 }))).toBe(before);
    expect(patchDevicePage(undefined, push())).toBeUndefined();
  });

  it('keeps the warning bits when the report did not carry any (gas readings, offline notices)', () => {
    const warned = row(1, { warning: 32768 });
    expect(applyDevicePush(warned, push({ warning: null, data: { nh3: 0.2 } })).warning).toBe(32768);
    expect(applyDevicePush(warned, push({ warning: null, online: false, data: {} }))).toMatchObject({
      warning: 32768,
      online: false,
    });
    expect(applyDevicePush(warned, push({ warning: 0, data: { warning: 0 } })).warning).toBe(0);
  });

  it("takes a meter's reading from the push", () => {
    expect(applyDevicePush(row(1, { reading: 10 }), push({ data: { reading: 12.5 } })).reading).toBe(12.5);
    expect(applyDevicePush(row(1, { reading: 10 }), push({ data: {} })).reading).toBe(10);
  });

  it('lets an older report fill missing fields only, keeping the newer time', () => {
    const old = push({ time: 500_000, data: { nh3: 9, h2s: 0.01 } });
    const after = applyDevicePush(row(1), old);
    expect(after.time).toBe(1_000_000);
    expect(after.latest).toEqual({ nh3: 0.1, co2: 500, h2s: 0.01 });
  });

  it('sets the time of a device that had never reported', () => {
    expect(applyDevicePush(row(1, { time: null, latest: {} }), push()).time).toBe(2_000_000);
  });

  it('updates the TanStack Query cache of every cached page of the kind, without fetching', () => {
    const client = new QueryClient();
    const key = ['devices', 'gateway', 'list', { seq: 0 }, 1, 10];
    const other = ['devices', 'jwb', 'list', { seq: 0 }, 1, 10];
    client.setQueryData(key, page());
    client.setQueryData(other, page());
    client.setQueriesData<Page<DeviceRow>>({ queryKey: ['devices', 'gateway', 'list'] }, (p) =>
      patchDevicePage(p, push()),
    );
    expect(client.getQueryData<Page<DeviceRow>>(key)!.list[1]!.online).toBe(true);
    expect(client.getQueryData<Page<DeviceRow>>(other)!.list[1]!.online).toBe(false);
    expect(client.getQueryState(key)!.fetchStatus).toBe('idle');
  });

  it('recognises a device push', () => {
    expect(isDevicePush(push())).toBe(true);
    expect(isDevicePush(push({ warning: null }))).toBe(true);
    expect(isDevicePush({ id: 1 })).toBe(false);
    expect(isDevicePush(null)).toBe(false);
  });
});
