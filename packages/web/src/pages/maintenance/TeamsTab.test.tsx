import type { TeamRow } from '@se/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { addTeam, listPlanAssignees, listTeams, updateTeam } from '../../api/maintenance.ts';
import { withProviders } from '../../test-render.tsx';
import { TeamsTab } from './TeamsTab.tsx';

vi.mock(import('../../api/maintenance.ts'), async (original) => ({
  ...(await original()),
  listTeams: vi.fn(),
  addTeam: vi.fn(),
  updateTeam: vi.fn(),
  listPlanAssignees: vi.fn(),
}));

const ok = <T,>(data: T) => ({ code: 200, message: '', data });

const team: TeamRow = {
  id: 3,
  name: '一班',
  lead_id: 5,
  lead_name: '张师傅',
  members: [
    { id: 5, user_name: '张师傅' },
    { id: 6, user_name: '李师傅' },
  ],
  note: '',
  user_id: 2,
  user_name: 'dealer',
  plan_count: 2,
  open_orders: 1,
  created_at: '2026-11-01 08:00:00',
};

beforeEach(() => {
  vi.mocked(listTeams)
    .mockReset()
    .mockResolvedValue(ok({ list: [team], total: 1, page: 1, page_size: 10 }));
  vi.mocked(addTeam)
    .mockReset()
    .mockResolvedValue(ok({ id: 9 }));
  vi.mocked(updateTeam)
    .mockReset()
    .mockResolvedValue(ok({ id: 3 }));
  vi.mocked(listPlanAssignees)
    .mockReset()
    .mockResolvedValue(
      ok([
        { id: 2, user_name: 'dealer', company_name: '' },
        { id: 5, user_name: '张师傅', company_name: '' },
        { id: 6, user_name: '李师傅', company_name: '' },
      ]),
    );
});

function renderTab() {
  const router = createMemoryRouter(
    [{ path: '/maintenance-records', element: withProviders(<TeamsTab />) }],
    { initialEntries: ['/maintenance-records?tab=teams'] },
  );
  render(<RouterProvider router={router} />);
}

const rowOf = (text: string) => within(screen.getByText(text).closest('tr')!);

describe('维修班组', { timeout: 30_000 }, () => {
  it('shows each team with its lead, members and the work it has', async () => {
    renderTab();
    await screen.findByText('一班');
    expect(rowOf('一班').getAllByText('张师傅')).toHaveLength(2); // lead, and first member
    expect(rowOf('一班').getByText('李师傅')).toBeTruthy();
  });

  it('adds a team: a lead is required, members are picked among the accounts below', async () => {
    renderTab();
    await screen.findByText('一班');
    fireEvent.click(screen.getByRole('button', { name: /新增班组/ }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.change(dialog.getByLabelText('班组名称'), { target: { value: '二班' } });
    fireEvent.click(dialog.getByRole('button', { name: /保\s*存/ }));
    expect(await dialog.findByText('请选择负责人')).toBeTruthy();
    expect(addTeam).not.toHaveBeenCalled();

    fireEvent.mouseDown(dialog.getByLabelText('负责人'));
    fireEvent.click((await screen.findAllByTitle('李师傅')).at(-1)!);
    fireEvent.mouseDown(dialog.getByLabelText('成员'));
    fireEvent.click((await screen.findAllByTitle('dealer')).at(-1)!);
    fireEvent.click(dialog.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(addTeam).toHaveBeenCalledTimes(1));
    expect(vi.mocked(addTeam).mock.calls[0]![0]).toEqual({
      name: '二班',
      lead_id: 6,
      member_ids: [2],
      note: '',
    });
  });

  it('asks before deleting a team', async () => {
    renderTab();
    await screen.findByText('一班');
    fireEvent.click(rowOf('一班').getByRole('button', { name: /删\s*除/ }));
    expect(await screen.findByText('确定删除班组「一班」吗？')).toBeTruthy();
    const confirm = screen.getAllByRole('button', { name: /删\s*除|确\s*定/ }).at(-1)!;
    fireEvent.click(confirm);
    await waitFor(() => expect(updateTeam).toHaveBeenCalledWith({ id: 3, is_delete: true }));
  });
});
