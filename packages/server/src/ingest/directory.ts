import crypto from 'node:crypto';
import type { Db } from '../db/index.ts';
import { deviceRefsAfter, devicesBySerNums } from './repo.ts';

export interface DeviceRef {
  id: number;
  kind: string;
  ser_num: string;
  token: string;
  /** A sensor's gateway. */
  gateway_id: number | null;
  /**
   * An industrial gas monitor's type (SPEC §3: null = none): such a gateway's gases are
   * judged by the exposure handler (GBZ 2.1), not by the toilet air alarm.
   */
  industrial_type: string | null;
}

const TTL_MS = 30_000;
const MISS_TTL_MS = 5_000;
/** Devices loaded per query while warming, and serial numbers asked per lookup query. */
const PAGE = 10_000;
const MAX_BATCH = 5_000;
const MAX_KNOWN = 500_000;
const MAX_UNKNOWN = 100_000;

interface Waiter {
  resolve: (ref: DeviceRef | null) => void;
  reject: (err: Error) => void;
}

/**
 * Serial number → device, in memory: every sign-in (MQTT CONNECT, HTTP report) asks it, and
 * after a restart thousands of devices sign in within seconds while ingest batches hold the
 * database. So the directory
 * - is warmed with every device in a few paged queries at startup (`warm`);
 * - answers what it knows from memory; a device it does not know, or knows for longer than
 *   TTL_MS, joins the next lookup: one query at a time for all serial numbers asked
 *   meanwhile, never one query per sign-in.
 * A device deleted or restored here is forgotten at once (`forget`); one changed by another
 * server copy is seen within TTL_MS, an unknown one that appears within MISS_TTL_MS.
 */
export class DeviceDirectory {
  private known = new Map<string, { ref: DeviceRef; at: number }>();
  private unknown = new Map<string, number>();
  private wanted = new Map<string, Waiter[]>();
  private looking = false;
  private warming: Promise<void> | null = null;
  /** Loads under way, and the serial numbers forgotten while one was: those stay unloaded. */
  private loads = 0;
  private forgotten = new Set<string>();

  constructor(private db: Db) {}

  /** Loads every device (paged); lookups arriving meanwhile wait for it. */
  warm(): Promise<void> {
    this.warming ??= (async () => {
      this.loads++;
      try {
        let after = 0;
        for (;;) {
          const at = Date.now();
          const page = await deviceRefsAfter(this.db, after, PAGE);
          for (const ref of page) this.remember(ref, at);
          if (page.length < PAGE || this.known.size >= MAX_KNOWN) break;
          after = page.at(-1)!.id;
        }
      } finally {
        this.settled();
      }
    })();
    return this.warming;
  }

  bySerNum(ser: string): Promise<DeviceRef | null> {
    const now = Date.now();
    const hit = this.known.get(ser);
    if (hit && now - hit.at < TTL_MS) return Promise.resolve(hit.ref);
    const miss = this.unknown.get(ser);
    if (miss !== undefined && now - miss < MISS_TTL_MS) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const waiters = this.wanted.get(ser);
      if (waiters) waiters.push({ resolve, reject });
      else this.wanted.set(ser, [{ resolve, reject }]);
      if (!this.looking) {
        this.looking = true;
        setImmediate(() => void this.lookUp());
      }
    });
  }

  /** The device when the serial number and token match, else null (constant-time compare). */
  async authenticate(ser: string | undefined, token: string | Buffer | undefined): Promise<DeviceRef | null> {
    if (!ser || token === undefined) return null;
    const d = await this.bySerNum(ser);
    if (!d) return null;
    const a = Buffer.from(d.token);
    const b = Buffer.isBuffer(token) ? token : Buffer.from(token);
    return a.length === b.length && crypto.timingSafeEqual(a, b) ? d : null;
  }

  /** The device was deleted, restored or changed its sign-in: the next one asks the database. */
  forget(ser: string) {
    this.known.delete(ser);
    this.unknown.delete(ser);
    if (this.loads > 0) this.forgotten.add(ser);
  }

  /**
   * The device's industrial type changed here: the ref every holder shares (a connected MQTT
   * client keeps the one it signed in with) takes it at once.
   */
  retype(ser: string, industrialType: string | null) {
    const hit = this.known.get(ser);
    if (hit) hit.ref.industrial_type = industrialType;
  }

  /** One query for every serial number asked since the last one, until none is left. */
  private async lookUp() {
    try {
      if (this.warming) await this.warming.catch(() => {});
      while (this.wanted.size) {
        const batch = new Map<string, Waiter[]>();
        for (const [ser, waiters] of this.wanted) {
          if (batch.size >= MAX_BATCH) break;
          batch.set(ser, waiters);
          this.wanted.delete(ser);
        }
        const at = Date.now();
        this.loads++;
        try {
          const found = new Map(
            (await devicesBySerNums(this.db, [...batch.keys()])).map((d) => [d.ser_num, d]),
          );
          for (const [ser, waiters] of batch) {
            const ref = found.get(ser) ?? null;
            if (ref) this.remember(ref, at);
            else if (!this.forgotten.has(ser)) {
              if (this.unknown.size >= MAX_UNKNOWN) this.unknown.clear();
              this.unknown.set(ser, at);
            }
            for (const w of waiters) w.resolve(ref);
          }
        } catch (err) {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(err as Error);
        } finally {
          this.settled();
        }
      }
    } finally {
      this.looking = false;
    }
  }

  private remember(ref: DeviceRef, at: number) {
    if (this.forgotten.has(ref.ser_num)) return;
    this.unknown.delete(ref.ser_num);
    // A refresh updates the ref already handed out (connected clients hold it) in place.
    const old = this.known.get(ref.ser_num)?.ref;
    if (old && old.id === ref.id) ref = Object.assign(old, ref);
    this.known.delete(ref.ser_num);
    // Oldest first out: a Map iterates in insertion order.
    if (this.known.size >= MAX_KNOWN) this.known.delete(this.known.keys().next().value!);
    this.known.set(ref.ser_num, { ref, at });
  }

  private settled() {
    if (--this.loads === 0) this.forgotten.clear();
  }
}
