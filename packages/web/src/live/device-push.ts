import type { DevicePush, DeviceRow, Page } from '@se/core';

// A push of the 'device' or 'devices' channel applied to the rows the screens already hold,
// so a list shows the new report time, online state and warning without fetching again.

/** The row after a push; an older report only fills fields the row never had. */
export function applyDevicePush(row: DeviceRow, push: DevicePush): DeviceRow {
  const newer = row.time === null || push.time >= row.time;
  const data = push.data ?? {};
  const reading = typeof data.reading === 'number' && newer ? data.reading : row.reading;
  return {
    ...row,
    time: newer ? push.time : row.time,
    online: push.online,
    // A push without warning bits (a gas reading, an offline notice) says nothing about
    // them (null), and the row keeps what it had.
    warning: newer && push.warning !== null ? push.warning : row.warning,
    reading,
    latest: newer ? { ...row.latest, ...data } : { ...data, ...row.latest },
  };
}

/** The page with the pushed device's row replaced; the same object when the device is not on it. */
export function patchDevicePage<P extends Page<DeviceRow>>(
  page: P | undefined,
  push: DevicePush,
): P | undefined {
  if (!page) return page;
  const index = page.list.findIndex((r) => r.id === push.id);
  if (index < 0) return page;
  const list = page.list.slice();
  list[index] = applyDevicePush(page.list[index]!, push);
  return { ...page, list };
}

/** The page with every pushed device's row replaced, in order; the same object when none is on it. */
export function patchDevicePageAll<P extends Page<DeviceRow>>(
  page: P | undefined,
  pushes: readonly DevicePush[],
): P | undefined {
  return pushes.reduce<P | undefined>((p, push) => patchDevicePage(p, push), page);
}

/** Whether a push (whose shape comes from the network) looks like a DevicePush. */
export function isDevicePush(data: unknown): data is DevicePush {
  const d = data as DevicePush | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.id === 'number' &&
    typeof d.time === 'number' &&
    typeof d.online === 'boolean' &&
    (typeof d.warning === 'number' || d.warning === null)
  );
}
