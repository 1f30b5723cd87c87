import type { DeviceRow } from '@se/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { listDevices } from '../../api/devices.ts';
import { LIVE_DEFAULTS } from '../../live/socket.ts';
import { DeviceList } from './DeviceList.tsx';
import { fakeBrowserSockets } from '../../test-live.ts';
import { deviceRow } from '../../test-rows.ts';
import { renderWithProviders } from '../../test-render.tsx';

vi.mock(import('../../api/devices.ts'), async (original) => ({
  ...(await original()),
  listDevices: vi.fn(),
}));

const { current: ws, connect, made } = fakeBrowserSockets();

const gateway = (id: number, over: Partial<DeviceRow> = {}): DeviceRow =>
  deviceRow({ id, ser_num: `GW-${id}`, desc: `网关${id}`, type: 40, ...over });

beforeEach(() => {
  vi.mocked(listDevices).mockReset();
  vi.mocked(listDevices).mockResolvedValue({
    code: 200,
    message: '',
    data: { list: [gateway(1), gateway(2)], total: 2, page: 1, page_size: 10 },
  });
});

const rowOf = (serNum: string) => screen.getByText(serNum).closest('tr')!;

/** The gateway list, fetched once, on a socket whose 'devices' subscription the server accepted. */
async function subscribedList() {
  renderWithProviders(<DeviceList kind="gateway" />, { router: true });
  await waitFor(() => expect(listDevices).toHaveBeenCalledTimes(1));
  await connect();
  ws().reply(ws().last('subscribe'));
  await act(async () => {});
}

describe('live device list', { timeout: 20_000 }, () => {
  it("updates a row from the 'devices' channel in place, without fetching the list again", async () => {
    renderWithProviders(<DeviceList kind="gateway" />, { router: true });
    await waitFor(() => expect(within(rowOf('GW-2')).getByText('从未上报')).toBeTruthy());
    expect(within(rowOf('GW-2')).getByText('离线')).toBeTruthy();

    await connect();
    expect(ws().last('subscribe').data).toEqual({ channel: 'devices', kind: 'gateway' });
    ws().reply(ws().last('subscribe'));
    await act(async () => {});

    act(() =>
      ws().push('devices', 'gateway', {
        id: 2,
        kind: 'gateway',
        time: Date.now() - 5000,
        online: true,
        warning: 0,
        data: { nh3: 0.3 },
      }),
    );
    await waitFor(() => expect(within(rowOf('GW-2')).getByText('在线')).toBeTruthy());
    expect(within(rowOf('GW-2')).getByText('1 分钟前')).toBeTruthy();
    // The other row is untouched, and the list was fetched once only.
    expect(within(rowOf('GW-1')).getByText('离线')).toBeTruthy();
    expect(listDevices).toHaveBeenCalledTimes(1);
  });

  it('fetches the list again after a reconnect (pushes were missed meanwhile)', async () => {
    await subscribedList();

    vi.useFakeTimers();
    try {
      act(() => ws().drop());
      await act(() => vi.advanceTimersByTimeAsync(1000));
    } finally {
      vi.useRealTimers();
    }
    await connect();
    ws().reply(ws().last('subscribe'));
    await waitFor(() => expect(listDevices).toHaveBeenCalledTimes(2));
  });

  it('takes a burst of reports into every row it names', async () => {
    renderWithProviders(<DeviceList kind="gateway" />, { router: true });
    await waitFor(() => expect(within(rowOf('GW-1')).getByText('从未上报')).toBeTruthy());
    await connect();
    ws().reply(ws().last('subscribe'));
    await act(async () => {});
    const report = (id: number, online: boolean) =>
      ws().push('devices', 'gateway', {
        id,
        kind: 'gateway',
        time: Date.now(),
        online,
        warning: 0,
        data: {},
      });
    act(() => {
      report(1, true);
      report(2, true);
      report(2, false);
    });
    await waitFor(() => expect(within(rowOf('GW-1')).getByText('在线')).toBeTruthy());
    // The last report of a device wins.
    expect(within(rowOf('GW-2')).getByText('离线')).toBeTruthy();
    expect(within(rowOf('GW-2')).getByText('1 分钟前')).toBeTruthy();
  });

  it('stops the reports of a tab left in the background and fetches the list again when it is back', async () => {
    let visibility: DocumentVisibilityState = 'visible';
    const visibilitySpy = vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    const show = (state: DocumentVisibilityState) => {
      visibility = state;
      document.dispatchEvent(new Event('visibilitychange'));
    };
    try {
      await subscribedList();

      vi.useFakeTimers();
      try {
        show('hidden');
        await act(() => vi.advanceTimersByTimeAsync(LIVE_DEFAULTS.hiddenPauseMs));
      } finally {
        vi.useRealTimers();
      }
      expect(ws().closedWith).not.toBeNull();
      expect(made).toHaveLength(1);

      show('visible');
      expect(made).toHaveLength(2);
      await connect();
      ws().reply(ws().last('subscribe'));
      await waitFor(() => expect(listDevices).toHaveBeenCalledTimes(2));
    } finally {
      show('visible');
      visibilitySpy.mockRestore();
    }
  });
});
