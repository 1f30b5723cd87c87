import { applyAlarms, syncToiletAlarmFlags } from '../alarms.ts';
import type { IngestHandler } from '../handler.ts';

/**
 * Every kind: gas, smoke, help and dispenser/paper-machine warning alarms open and close
 * (`signals` in `ingest/alarms.ts` reads what each report carries), a report closes
 * 'offline', and the toilets of the reporting devices follow (flag 4).
 */
export const deviceAlarms: IngestHandler = {
  name: 'device-alarms',
  kinds: 'all',
  async alarm(tx, stored, out) {
    const ids = await applyAlarms(tx, stored);
    for (const id of ids) out.alarmIds.push(id);
    if (ids.length) await syncToiletAlarmFlags(tx, [...new Set(stored.map((s) => s.device_id))]);
  },
};
