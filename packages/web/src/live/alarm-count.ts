import type { AlarmCount, AlarmRow, AlarmStatus } from '@se/core';

// The bell's count between fetches: each 'alarms' push moves it by what the alarm's change
// means (a new alarm adds one, an acknowledgement leaves the active count, a close takes
// one off). The statuses last seen per alarm make a repeated push change nothing.

const STATUSES: readonly string[] = ['open', 'acked', 'closed'];
const isActive = (s: AlarmStatus | undefined) => s === 'open' || s === 'acked';
const REMEMBERED = 2000;

export interface AlarmChange {
  /** The count after the push; undefined when there was none to move. */
  count: AlarmCount | undefined;
  /** False when the change could not be worked out (fetch the count again). */
  exact: boolean;
  /** A new alarm: worth a toast. */
  isNew: boolean;
}

export class AlarmTracker {
  private readonly statuses = new Map<number, AlarmStatus>();

  /** Statuses the screens learnt otherwise (a list, an acknowledgement). */
  remember(rows: readonly Pick<AlarmRow, 'id' | 'status'>[]): void {
    for (const row of rows) if (STATUSES.includes(row.status)) this.set(row.id, row.status as AlarmStatus);
  }

  update(count: AlarmCount | undefined, row: Pick<AlarmRow, 'id' | 'status'>): AlarmChange {
    if (!STATUSES.includes(row.status)) return { count, exact: false, isNew: false };
    const next = row.status as AlarmStatus;
    const prev = this.statuses.get(row.id);
    this.set(row.id, next);
    if (prev === next) return { count, exact: true, isNew: false };

    let dOpen = 0;
    let dActive = 0;
    let exact = true;
    if (prev === undefined) {
      // Not seen before: an alarm is opened, then acknowledged, then closed.
      if (next === 'open') {
        dOpen = 1;
        dActive = 1;
      } else if (next === 'acked') {
        dOpen = -1;
      } else {
        // Closed: it was active, but open or acknowledged we cannot tell.
        dActive = -1;
        exact = false;
      }
    } else {
      dOpen = (next === 'open' ? 1 : 0) - (prev === 'open' ? 1 : 0);
      dActive = (isActive(next) ? 1 : 0) - (isActive(prev) ? 1 : 0);
    }
    const isNew = next === 'open' && (prev === undefined || prev === 'closed');
    if (!count) return { count, exact: false, isNew };
    const moved = { open: count.open + dOpen, active: count.active + dActive };
    if (moved.open < 0 || moved.active < 0 || moved.open > moved.active) exact = false;
    const active = Math.max(0, moved.active);
    return { count: { open: Math.min(Math.max(0, moved.open), active), active }, exact, isNew };
  }

  private set(id: number, status: AlarmStatus): void {
    this.statuses.delete(id);
    this.statuses.set(id, status);
    if (this.statuses.size > REMEMBERED) {
      const oldest = this.statuses.keys().next().value;
      if (oldest !== undefined) this.statuses.delete(oldest);
    }
  }
}

/** The console's one tracker: the bell and every 确认 button share what they have seen. */
export const alarmTracker = new AlarmTracker();
