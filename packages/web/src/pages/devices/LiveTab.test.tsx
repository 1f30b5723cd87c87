import type { DeviceRow } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getHistory, listAlarms } from '../../api/live.ts';
import { defaultTab } from './DeviceDrawer.tsx';
import { LiveTab } from './LiveTab.tsx';
import { fakeBrowserSockets } from '../../test-live.ts';
import { deviceRow } from '../../test-rows.ts';
import { renderWithProviders } from '../../test-render.tsx';

vi.mock(import('../../api/live.ts'), () => ({
  getHistory: vi.fn(),
  listAlarms: vi.fn(),
  ackAlarm: vi.fn(),
  getAlarmCount: vi.fn(),
}));

const { current: ws, connect } = fakeBrowserSockets();

const KEY = ['devices', 'gateway', 'one', 7] as const;
const device = deviceRow({
  id: 7,
  ser_num: 'GW-7',
  time: Date.now() - 60_000,
  online: true,
  latest: { nh3: 0.05, smk_alarm: 0, male_count: 8, male_occupy: 2 },
});

/** The drawer's part: the device query the tab reads and the pushes update. */
function Harness() {
  const row = useQuery({
    queryKey: KEY,
    queryFn: () => device,
    initialData: device,
    staleTime: Infinity,
  }).data;
  return <LiveTab device={row} queryKey={KEY} />;
}

beforeEach(() => {
  vi.mocked(getHistory).mockResolvedValue({
    code: 200,
    message: '',
    data: { bucket_ms: 300_000, source: 'raw', fields: [], points: [] },
  });
  vi.mocked(listAlarms).mockResolvedValue({
    code: 200,
    message: '',
    data: { list: [], total: 0, page: 1, page_size: 10 },
  });
});

describe('实时数据 tab', () => {
  it('shows the latest values with levels, and follows the device channel', async () => {
    const { client } = renderWithProviders(<Harness />);
    const nh3 = () => within(screen.getByTestId('latest-nh3'));
    expect(nh3().getByText('0.05')).toBeTruthy();
    expect(nh3().getByText('优')).toBeTruthy();
    expect(within(screen.getByTestId('latest-smk_alarm')).getByText('无报警')).toBeTruthy();
    expect(within(screen.getByTestId('occupancy-male')).getByText('2 / 8')).toBeTruthy();
    // History without points, and no alarms.
    await waitFor(() =>
      expect(screen.getByText('暂无数据', { selector: '.ant-empty-description' })).toBeTruthy(),
    );
    await waitFor(() => expect(screen.getByText('暂无告警')).toBeTruthy());
    expect(getHistory).toHaveBeenCalledWith(7, '24h');
    expect(listAlarms).toHaveBeenCalledWith({ device_id: 7, status: 'all', page: 1, page_size: 10 });

    await connect();
    expect(ws().last('subscribe').data).toEqual({ channel: 'device', id: 7 });
    ws().reply(ws().last('subscribe'));
    await act(async () => {});
    await waitFor(() => expect(screen.getByText('实时更新中')).toBeTruthy());

    act(() =>
      ws().push('device', 7, {
        id: 7,
        kind: 'gateway',
        time: Date.now(),
        online: true,
        warning: 0,
        data: { nh3: 1.6, smk_alarm: 1, male_count: 8, male_occupy: 8 },
      }),
    );
    await waitFor(() => expect(nh3().getByText('1.6')).toBeTruthy());
    expect(nh3().getByText('差')).toBeTruthy();
    expect(within(screen.getByTestId('latest-smk_alarm')).getByText('已触发')).toBeTruthy();
    expect(within(screen.getByTestId('occupancy-male')).getByText('8 / 8')).toBeTruthy();
    expect(client.getQueryData<DeviceRow>(KEY)?.latest.nh3).toBe(1.6);
  });

  it('is the first tab of gateways, sensors and dispensers', () => {
    expect(defaultTab('gateway')).toBe('live');
    expect(defaultTab('jwb')).toBe('live');
    expect(defaultTab('sensor')).toBe('live');
    expect(defaultTab('electric_meter')).toBe('info');
    expect(defaultTab('evaluate')).toBe('info');
  });
});
