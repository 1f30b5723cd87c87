import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ackAlarm, listAlarms } from '../api/live.ts';
import { renderWithProviders } from '../test-render.tsx';
import { alarmRow } from '../test-rows.ts';
import { AlarmCenterDrawer } from './AlarmPanels.tsx';

// Every call of the live API mocked; each test says what the server answers.
vi.mock(import('../api/live.ts'));

const alarm = (id: number, status: string) =>
  alarmRow(id, status, { ser_num: `GW000${id}`, message: `求助按钮被按下 ${id}` });

const page = (total: number, estimated?: boolean) => ({
  code: 200,
  message: '',
  data: { list: [alarm(1, 'open'), alarm(2, 'closed')], total, page: 1, page_size: 10, estimated },
});

beforeEach(() => {
  vi.mocked(listAlarms).mockReset().mockResolvedValue(page(2));
  vi.mocked(ackAlarm)
    .mockReset()
    .mockResolvedValue({ code: 200, message: '', data: alarm(1, 'acked') });
});

describe('alarm centre', { timeout: 20_000 }, () => {
  it('lists the active alarms first, 确认 on an open one, and a new type filter from page 1', async () => {
    renderWithProviders(<AlarmCenterDrawer open onClose={() => {}} />, { router: true });
    const row = (await screen.findByText('GW0001')).closest('tr')!;
    expect(listAlarms).toHaveBeenCalledWith({ status: 'active', type: undefined, page: 1, page_size: 10 });
    expect(
      within(screen.getByText('GW0002').closest('tr')!).queryByRole('button', { name: '确认' }),
    ).toBeNull();
    expect(screen.getByText('共 2 条')).toBeTruthy();

    fireEvent.click(within(row).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(ackAlarm).toHaveBeenCalledWith(1));

    fireEvent.mouseDown(screen.getByRole('combobox', { name: '类型' }));
    fireEvent.click(await screen.findByTitle('求助'));
    await waitFor(() =>
      expect(listAlarms).toHaveBeenLastCalledWith({ status: 'active', type: 'help', page: 1, page_size: 10 }),
    );
  });

  it('says 约 N 条 of an estimated total', async () => {
    vi.mocked(listAlarms).mockResolvedValue(page(20000, true));
    renderWithProviders(<AlarmCenterDrawer open onClose={() => {}} />, { router: true });
    expect(await screen.findByText('约 20000 条')).toBeTruthy();
  });
});
