import { JWB_WARNING, MAX_LIQUID_MARGIN, PAPER_WARNING, TZ_OFFSET_HOURS } from '@se/core';

/**
 * Plausible readings for a simulated device at a moment: occupancy follows a daily curve
 * (morning and evening peaks), NH3 rises with use, dispensers slowly run out of liquid,
 * paper dispensers run out of paper (缺纸) until a cleaner refills them, help alarms are rare. Deterministic per device (seeded), so runs can be compared.
 */

/** The demo organisation's staff (sim/demo-attendance.ts): their cards and faces. */
export const DEMO_STAFF = 60;
export const demoNumber = (n: number) => `E${String(n).padStart(4, '0')}`;
export const demoBadge = (n: number) => `C${String(n).padStart(4, '0')}`;
export const demoFace = (n: number) => `F${String(n).padStart(4, '0')}`;

export interface SimDevice {
  ser_num: string;
  token: string;
  kind: string;
  /** A dispenser's liquid at the start (default: random, 200–550). */
  liquid?: number;
  /** Its own readings model (demo meters and monitors); the kind's default otherwise. */
  model?: { next(at: number): Record<string, unknown> };
  /**
   * Local hours [from, to) (UTC+8, may wrap midnight) in which it reports nothing: a gateway
   * whose uplink drops at night, so the console sees it go offline before dawn.
   */
  quietHours?: [number, number];
  /** A review terminal in a toilet people are unhappy with: low stars and complaint ticks. */
  ratings?: 'poor';
}

/** Small fast PRNG (mulberry32). */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

/** Share of peak use at a local hour (UTC+8): two peaks, quiet at night. */
export function usage(hour: number): number {
  const peak = (h: number, w: number) => Math.exp(-((hour - h) ** 2) / (2 * w * w));
  return Math.min(1, 0.05 + 0.9 * peak(8.5, 1.5) + 0.7 * peak(12.5, 1.2) + 0.8 * peak(18, 2));
}

/** The local hour (UTC+8, fractional) of an instant. */
export const localHour = (at: number) =>
  (new Date(at).getUTCHours() + TZ_OFFSET_HOURS + new Date(at).getUTCMinutes() / 60) % 24;

/** True on Saturday and Sunday in UTC+8. */
export const isWeekend = (at: number) => {
  const day = new Date(at + TZ_OFFSET_HOURS * 3_600_000).getUTCDay();
  return day === 0 || day === 6;
};

/**
 * The share of a review terminal's turns that carry a review: more when the toilet is busy,
 * about twice as many at weekends (parks and sights fill up).
 */
export function reviewShare(at: number): number {
  return (isWeekend(at) ? 0.1 : 0.05) * (0.2 + usage(localHour(at)));
}

/** True while a device with quiet hours says nothing. */
export function isQuiet(device: Pick<SimDevice, 'quietHours'>, at: number): boolean {
  if (!device.quietHours) return false;
  const [from, to] = device.quietHours;
  const h = localHour(at);
  return from <= to ? h >= from && h < to : h >= from || h < to;
}

const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;

export class ValueModel {
  private r: () => number;
  private liquid: number;
  private reading: number;
  private paper: number;

  constructor(private device: SimDevice) {
    this.r = rng(hash(device.ser_num));
    const liquid = 200 + this.r() * 350;
    this.liquid = device.liquid ?? liquid;
    this.reading = 1000 + this.r() * 50_000;
    this.paper = 30 + this.r() * 70;
  }

  next(at: number): Record<string, unknown> {
    const u = usage(localHour(at));
    const r = this.r;
    switch (this.device.kind) {
      case 'gateway': {
        const occupy = (cap: number) => Math.min(cap, Math.round(cap * u * (0.6 + r() * 0.6)));
        return {
          nh3: round(0.02 + u * 0.9 * (0.7 + r() * 0.6)),
          h2s: round(0.005 + u * 0.03 * r(), 4),
          voc: round(0.5 + u * 2.5 * r(), 2),
          pm25: Math.round(20 + r() * 60),
          co2: Math.round(450 + u * 900 * (0.6 + r() * 0.6)),
          smk_alarm: 0,
          alarm: r() < 0.0005 ? 1 : 0,
          male_count: 8,
          male_occupy: occupy(8),
          // Uses since the previous report (docs/protocol.md): the data centres add them up.
          male_times: Math.round(u * 3 * r()),
          female_count: 10,
          female_occupy: occupy(10),
          female_times: Math.round(u * 4 * r()),
          others_count: 2,
          others_occupy: occupy(2),
          others_times: Math.round(u * r()),
          pot_int: 60,
        };
      }
      case 'jwb': {
        this.liquid = Math.max(0, this.liquid - u * r() * 0.8);
        if (this.liquid === 0 && r() < 0.002) this.liquid = MAX_LIQUID_MARGIN; // refilled
        return {
          liquid: round(this.liquid, 1),
          warning: this.liquid < 20 ? JWB_WARNING.lackOfLiquid : 0,
          state: 1,
          nh3: round(0.02 + u * 0.5 * r()),
        };
      }
      case 'electric_meter':
      case 'water_meter':
        this.reading += u * r() * 0.5;
        return { reading: round(this.reading, 2) };
      case 'paper_machine': {
        // Drains with use; empty (缺纸) until a cleaner comes by; now and then a jam.
        this.paper = Math.max(0, this.paper - u * r() * 1.5);
        if (this.paper === 0 && r() < 0.01) this.paper = 100;
        const level = Math.round(this.paper);
        const warning =
          (level === 0 ? PAPER_WARNING.outOfPaper : level < 15 ? PAPER_WARNING.lowPaper : 0) |
          (r() < 0.001 ? PAPER_WARNING.paperJam : 0);
        return { level, warning };
      }
      case 'evaluate': {
        if (this.device.ratings === 'poor') {
          // A toilet with a problem worth finding: low stars and the complaints they tick.
          return {
            star_level: r() < 0.6 ? 1 : r() < 0.6 ? 2 : 3,
            smelly: r() < 0.6 ? 1 : 0,
            poorsanitary: r() < 0.5 ? 1 : 0,
            inefficiency: r() < 0.15 ? 1 : 0,
          };
        }
        // Mostly content; now and then a bad review, with the complaint it ticks.
        const s = r();
        const star = s < 0.6 ? 5 : s < 0.8 ? 4 : s < 0.92 ? 3 : s < 0.97 ? 2 : 1;
        return {
          star_level: star,
          smelly: star <= 3 && r() < 0.4 ? 1 : 0,
          poorsanitary: star <= 2 && r() < 0.5 ? 1 : 0,
          badattitude: star === 1 && r() < 0.3 ? 1 : 0,
        };
      }
      case 'attendance':
        // A demo employee's card or face (sim/demo-attendance.ts), now and then a stranger's.
        return r() < 0.03
          ? { badge: `VISITOR-${Math.floor(r() * 1000)}`, method: 'card' }
          : r() < 0.5
            ? { badge: demoBadge(1 + Math.floor(r() * DEMO_STAFF)), method: 'card' }
            : { badge: demoFace(1 + Math.floor(r() * DEMO_STAFF)), method: 'face' };
      default:
        return { nh3: round(0.05 + u * 0.5 * r()) };
    }
  }
}
