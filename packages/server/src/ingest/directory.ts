import crypto from 'node:crypto';
import type { Db } from '../db/index.ts';
import { deviceBySerNum } from './repo.ts';

export interface DeviceRef {
  id: number;
  kind: string;
  ser_num: string;
  token: string;
  /** A sensor's gateway. */
  gateway_id: number | null;
}

const TTL_MS = 30_000;
const MISS_TTL_MS = 5_000;

/**
 * Serial number → device, cached: every report authenticates, so the lookup must not cost
 * a query each time. A changed or deleted device is seen within TTL_MS.
 */
export class DeviceDirectory {
  private cache = new Map<string, { ref: DeviceRef | null; at: number }>();

  constructor(private db: Db) {}

  async bySerNum(ser: string): Promise<DeviceRef | null> {
    const now = Date.now();
    const hit = this.cache.get(ser);
    if (hit && now - hit.at < (hit.ref ? TTL_MS : MISS_TTL_MS)) return hit.ref;
    const ref = await deviceBySerNum(this.db, ser);
    if (this.cache.size > 200_000) this.cache.clear();
    this.cache.set(ser, { ref, at: now });
    return ref;
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

  forget(ser: string) {
    this.cache.delete(ser);
  }
}
