import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { listRules } from '../../api/rules.ts';
import { fakeBrowserSockets } from '../../test-live.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { okPage, ruleRow } from '../../test-rows.ts';
import FormulaTab from './FormulaTab.tsx';

const { withStubs } = await vi.hoisted(() => import('../../test-mock.ts'));
vi.mock(import('../../api/rules.ts'), (original) => withStubs(original, ['listRules']));

const { current: ws, connect } = fakeBrowserSockets();

beforeEach(() => {
  vi.mocked(listRules).mockReset();
  vi.mocked(listRules).mockResolvedValue(okPage([ruleRow()]));
});

describe('formula rules list', { timeout: 20_000 }, () => {
  it("shows 最近触发 from the 'rules' channel without a reload", async () => {
    renderWithProviders(<FormulaTab />, { router: true });
    expect(await screen.findByText('尚未触发')).toBeTruthy();
    // A counting rule says what it counts.
    expect(screen.getByText('30 分钟内 3 次')).toBeTruthy();

    await connect();
    expect(ws().last('subscribe').data).toEqual({ channel: 'rules' });
    ws().reply(ws().last('subscribe'));
    await act(async () => {});

    vi.mocked(listRules).mockResolvedValue(
      okPage([ruleRow({ hit_count: 1, last_fired_at: '2026-11-25 10:15:00' })]),
    );
    act(() => ws().push('rules', undefined, { id: 9, fired_at: Date.now(), hits: 1 }));
    expect(await screen.findByText('2026-11-25 10:15:00')).toBeTruthy();
    expect(screen.getByText('共 1 次')).toBeTruthy();
    expect(listRules).toHaveBeenCalledTimes(2);
  });

  it('fits its card at 1366 px: 最近触发 shown whole, 冷却 folded into the row', async () => {
    Object.defineProperty(window, 'innerWidth', { value: 1366, configurable: true });
    try {
      renderWithProviders(<FormulaTab />, { router: true });
      expect(await screen.findByText('尚未触发')).toBeTruthy();
      expect(screen.getByRole('columnheader', { name: '最近触发' })).toBeTruthy();
      expect(screen.queryByRole('columnheader', { name: '冷却' })).toBeNull();
      // 1366 less the menu (216), the content's and the card's padding (32 + 48) and a scroll bar.
      const table = document.querySelector<HTMLTableElement>('.ant-table table')!;
      expect(parseInt(table.style.width, 10)).toBeLessThanOrEqual(1366 - 216 - 32 - 48 - 16);
    } finally {
      Object.defineProperty(window, 'innerWidth', { value: 1024, configurable: true });
    }
  });
});
