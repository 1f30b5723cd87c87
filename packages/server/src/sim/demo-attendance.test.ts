import { describe, expect, it } from 'vitest';
import { historyPunches } from './demo-attendance.ts';
import { DEMO_STAFF } from './values.ts';

// Times in UTC+8; 2026-11-25 is a Wednesday, 2026-11-28 a Saturday.
const at = (day: number, hour: number, minute = 0) => Date.UTC(2026, 10, day, hour - 8, minute, 0);
const today = (messages: Record<string, unknown>[], date: string) =>
  messages.filter((m) => String(m.id).includes(`-${date}-`));
const ins = (messages: Record<string, unknown>[]) => messages.filter((m) => String(m.id).endsWith('-in'));

describe("the demo terminal's punches up to the moment the demo starts", () => {
  it("back-fills this morning's clock-ins when the demo starts in the afternoon", () => {
    const afternoon = historyPunches(at(25, 15));
    const punched = today(afternoon, '20261125');
    // Nearly everyone clocked in this morning (a few are absent), nobody has left yet.
    expect(ins(punched).length).toBeGreaterThan(DEMO_STAFF * 0.9);
    expect(punched.every((m) => String(m.id).endsWith('-in'))).toBe(true);
    // Nothing after the start, and the past days as before.
    expect(afternoon.every((m) => (m.data as { punched_at: number }).punched_at <= at(25, 15))).toBe(true);
    expect(ins(today(afternoon, '20261124')).length).toBeGreaterThan(DEMO_STAFF * 0.9);
  });

  it('sends none of today yet at 07:00, and the clock-outs too in the evening', () => {
    expect(today(historyPunches(at(25, 7)), '20261125')).toEqual([]);
    const evening = today(historyPunches(at(25, 20)), '20261125');
    expect(evening.filter((m) => String(m.id).endsWith('-out')).length).toBeGreaterThan(DEMO_STAFF * 0.9);
  });

  it('keeps the ids of a day fixed, so a restart later in the day stores each punch once', () => {
    const morning = today(historyPunches(at(25, 9, 30)), '20261125');
    const later = today(historyPunches(at(25, 16)), '20261125');
    const laterById = new Map(later.map((m) => [m.id, m]));
    expect(morning.length).toBeGreaterThan(0);
    for (const m of morning) expect(laterById.get(m.id)).toEqual(m);
  });

  it('sends nothing for a Saturday', () => {
    expect(today(historyPunches(at(28, 15)), '20261128')).toEqual([]);
  });
});
