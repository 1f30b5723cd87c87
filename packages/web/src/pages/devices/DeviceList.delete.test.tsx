import { PERMISSION } from '@se/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteDevice, getDevice, getDeviceInfo, listDevices } from '../../api/devices.ts';
import { useSession } from '../../session/store.ts';
import { withProviders } from '../../test-render.tsx';
import { deviceRow } from '../../test-rows.ts';
import { DeviceList } from './DeviceList.tsx';

const { withStubs } = await vi.hoisted(() => import('../../test-mock.ts'));
vi.mock(import('../../api/devices.ts'), (original) =>
  withStubs(original, ['listDevices', 'getDevice', 'getDeviceInfo', 'deleteDevice']),
);

const ok = <T,>(data: T) => ({ code: 200, message: '', data });
const terminal = (id: number) => deviceRow({ id, kind: 'evaluate', ser_num: `EV-${id}` });

/** The address after each navigation of the page's router. */
let addresses: string[] = [];

beforeEach(() => {
  addresses = [];
  vi.mocked(listDevices).mockReset();
  vi.mocked(deleteDevice).mockReset();
  useSession.getState().signIn({ userName: '王经理', permission: PERMISSION.dealer, userID: 9 });
  vi.mocked(listDevices).mockResolvedValue(
    ok({ list: [terminal(7), terminal(8)], total: 2, page: 1, page_size: 10 }),
  );
  vi.mocked(getDevice).mockImplementation((_kind, id) => Promise.resolve(ok(terminal(id))));
  vi.mocked(getDeviceInfo).mockResolvedValue({ code: 404, message: '无设备信息', data: null as never });
  vi.mocked(deleteDevice).mockImplementation((_kind, id) => Promise.resolve(ok(terminal(id))));
});
afterEach(() => useSession.getState().reset());

/** The 评价器 list opened from a link to device 7, under a data router in StrictMode as the app mounts it. */
function openLinked() {
  const router = createMemoryRouter([{ path: '/evaluates', element: <DeviceList kind="evaluate" /> }], {
    initialEntries: ['/evaluates?device=7'],
  });
  router.subscribe((state) => addresses.push(state.location.search));
  render(<StrictMode>{withProviders(<RouterProvider router={router} />)}</StrictMode>);
  return router;
}

const rowOf = (serNum: string) =>
  screen
    .getAllByText(serNum)
    .find((e) => e.closest('tr'))!
    .closest('tr')!;

async function deleteRow(serNum: string) {
  fireEvent.click(within(rowOf(serNum)).getByRole('button', { name: /删\s*除/ }));
  await screen.findByText(`确定删除 ${serNum} 吗？删除后设备的数据不再上报到平台。`);
  fireEvent.click(screen.getAllByRole('button', { name: /删\s*除/ }).at(-1)!);
  await waitFor(() => expect(deleteDevice).toHaveBeenCalledTimes(1));
  // The list reloads after a delete.
  await waitFor(() => expect(listDevices).toHaveBeenCalledTimes(2));
}

describe('deleting a device from its list', { timeout: 45_000 }, () => {
  it('closes the drawer of the deleted device and drops its link from the address once', async () => {
    const router = openLinked();
    await screen.findByText('评价器 EV-7');
    await waitFor(() => expect(rowOf('EV-8')).toBeTruthy());

    await deleteRow('EV-7');
    await waitFor(() => expect(screen.queryByText('评价器 EV-7')).toBeNull());
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(addresses).toEqual(['']);
  });

  it('keeps the drawer and its link when another device is deleted', async () => {
    openLinked();
    await screen.findByText('评价器 EV-7');
    await waitFor(() => expect(rowOf('EV-8')).toBeTruthy());

    await deleteRow('EV-8');
    expect(screen.getByText('评价器 EV-7')).toBeTruthy();
    expect(addresses).toEqual([]);
  });
});
