import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getAlarmCount, listAlarms } from '../api/live.ts';
import { toast } from '../components/toast.ts';
import { useSession } from '../session/store.ts';
import { AlarmBell } from './AlarmBell.tsx';
import { fakeBrowserSockets } from '../test-live.ts';
import { renderWithProviders } from '../test-render.tsx';
import { alarmRow } from '../test-rows.ts';

// Every call of the live API mocked; each test says what the server answers.
vi.mock(import('../api/live.ts'));
// Every export of the toast module mocked: the test reads what the bell toasts.
vi.mock(import('../components/toast.ts'));

const { made, current: ws, connect } = fakeBrowserSockets();

function renderBell() {
  return renderWithProviders(<AlarmBell />);
}

const bell = () => screen.queryByRole('button', { name: /^告警中心/ });

beforeEach(() => {
  vi.mocked(getAlarmCount).mockResolvedValue({ code: 200, message: '', data: { open: 1, active: 2 } });
  vi.mocked(listAlarms).mockResolvedValue({
    code: 200,
    message: '',
    data: { list: [], total: 0, page: 1, page_size: 10 },
  });
  vi.mocked(toast.warning).mockReset();
  useSession.getState().signIn({ userName: 'zhang', permission: 2, userID: 4 });
});

describe('alarm bell', () => {
  it('shows the active count and keeps it current from the alarms channel, toasting new alarms', async () => {
    renderBell();
    await waitFor(() => expect(bell()?.getAttribute('aria-label')).toBe('告警中心，2 条未恢复'));

    await connect();
    expect(ws().actions()).toEqual(['auth', 'subscribe alarms']);
    ws().reply(ws().last('subscribe'));
    await act(async () => {});

    act(() => ws().push('alarms', undefined, alarmRow(41, 'open')));
    await waitFor(() => expect(bell()?.getAttribute('aria-label')).toBe('告警中心，3 条未恢复'));
    await waitFor(() =>
      expect(toast.warning).toHaveBeenCalledWith('求助 · GW0003（东区男厕）：求助按钮被按下'),
    );

    // Acknowledged: still active, no second toast.
    act(() => ws().push('alarms', undefined, alarmRow(41, 'acked')));
    await act(async () => {});
    expect(bell()?.getAttribute('aria-label')).toBe('告警中心，3 条未恢复');
    expect(toast.warning).toHaveBeenCalledTimes(1);

    act(() => ws().push('alarms', undefined, alarmRow(41, 'closed')));
    await waitFor(() => expect(bell()?.getAttribute('aria-label')).toBe('告警中心，2 条未恢复'));
  });

  it('toasts many alarms opened at once as one summary', async () => {
    renderBell();
    await waitFor(() => expect(bell()?.getAttribute('aria-label')).toBe('告警中心，2 条未恢复'));
    await connect();
    ws().reply(ws().last('subscribe'));
    await act(async () => {});
    act(() => {
      for (let id = 100; id < 105; id++)
        ws().push('alarms', undefined, { ...alarmRow(id, 'open'), type: 'offline' });
      ws().push('alarms', undefined, alarmRow(105, 'open'));
    });
    await waitFor(() => expect(bell()?.getAttribute('aria-label')).toBe('告警中心，8 条未恢复'));
    await waitFor(() => expect(toast.warning).toHaveBeenCalledTimes(1));
    expect(toast.warning).toHaveBeenCalledWith('新增 6 条告警（离线 5 条、求助 1 条），请在告警中心查看');
  });

  it('is not there for a user without permission bits', () => {
    useSession.getState().signIn({ userName: 'nobody', permission: 0, userID: 9 });
    renderBell();
    expect(bell()).toBeNull();
    expect(made).toHaveLength(0);
  });
});
