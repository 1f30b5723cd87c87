import type { EquipmentTypeRow, PlanRow, TeamRow } from '@se/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addPlan,
  listEquipmentTypes,
  listPlanAssignees,
  listPlans,
  listTeams,
  updatePlan,
} from '../../api/maintenance.ts';
import { withProviders } from '../../test-render.tsx';
import { PlansTab } from './PlansTab.tsx';

vi.mock(import('../../api/maintenance.ts'), async (original) => ({
  ...(await original()),
  listPlans: vi.fn(),
  addPlan: vi.fn(),
  updatePlan: vi.fn(),
  listPlanAssignees: vi.fn(),
  listEquipmentTypes: vi.fn(),
  listTeams: vi.fn(),
}));

const ok = <T,>(data: T) => ({ code: 200, message: '', data });
const page = <T,>(list: T[]) => ok({ list, total: list.length, page: 1, page_size: 10 });

const plan = (id: number, over: Partial<PlanRow> = {}): PlanRow => ({
  id,
  name: `计划${id}`,
  equipment_type_id: 1,
  equipment_type_name: '除臭机',
  device_id: 5,
  ser_num: 'JWB-5',
  toilet_id: null,
  toilet_name: '',
  trigger: 'days',
  every: 30,
  starts_at: '2026-11-01 08:00:00',
  response_hours: 72,
  assignee_id: null,
  assignee_name: '',
  team_id: null,
  team_name: '',
  checklist: ['补液', '清洗'],
  enabled: true,
  note: '',
  user_id: 2,
  user_name: 'dealer',
  editable: true,
  targets: 1,
  next_due_at: '2026-12-01 08:00:00',
  progress: null,
  due_soon: false,
  overdue: false,
  open_orders: 0,
  last_opened_at: null,
  created_at: '2026-11-01 08:00:00',
  ...over,
});

const jwbType: EquipmentTypeRow = {
  id: 1,
  name: '除臭机',
  code: 'jwb',
  category: 'device',
  note: '',
  builtin: true,
  editable: false,
  fault_count: 4,
  created_at: '',
};

beforeEach(() => {
  vi.mocked(listPlans)
    .mockReset()
    .mockResolvedValue(
      page([
        plan(1, { name: '月度保养', overdue: true, due_soon: true }),
        plan(2, {
          name: '按人次保洁',
          trigger: 'uses',
          every: 500,
          progress: 0.42,
          next_due_at: null,
          device_id: null,
          ser_num: '',
          toilet_id: 7,
          toilet_name: '西湖公厕',
        }),
        plan(3, { name: '上级的计划', editable: false }),
        plan(4, { name: '班组的计划', team_id: 3, team_name: '一班' }),
      ]),
    );
  vi.mocked(addPlan)
    .mockReset()
    .mockResolvedValue(ok({ id: 9 }));
  vi.mocked(updatePlan)
    .mockReset()
    .mockResolvedValue(ok({ id: 1 }));
  vi.mocked(listPlanAssignees).mockReset().mockResolvedValue(ok([]));
  vi.mocked(listEquipmentTypes).mockResolvedValue(page([jwbType]));
  vi.mocked(listTeams).mockResolvedValue(page([team]));
});

const team: TeamRow = {
  id: 3,
  name: '一班',
  lead_id: 5,
  lead_name: '张师傅',
  members: [{ id: 5, user_name: '张师傅' }],
  note: '',
  user_id: 2,
  user_name: 'dealer',
  plan_count: 1,
  open_orders: 0,
  created_at: '',
};

function renderTab() {
  const router = createMemoryRouter(
    [{ path: '/maintenance-records', element: withProviders(<PlansTab />) }],
    {
      initialEntries: ['/maintenance-records?tab=plans'],
    },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const rowOf = (text: string) => within(screen.getByText(text).closest('tr')!);

describe('保养计划', { timeout: 30_000 }, () => {
  it('shows what each plan covers, when it is next due and whether it is late', async () => {
    renderTab();
    await screen.findByText('月度保养');
    expect(rowOf('月度保养').getByText('已超期')).toBeTruthy();
    expect(rowOf('月度保养').getByText('2026-12-01 08:00')).toBeTruthy();
    expect(rowOf('按人次保洁').getByText('西湖公厕')).toBeTruthy();
    expect(rowOf('按人次保洁').getByText('42%')).toBeTruthy();
    expect(rowOf('按人次保洁').getByText('每 500 人次（使用人次）')).toBeTruthy();
    // A plan made above the caller cannot be changed here.
    expect(rowOf('上级的计划').getByText('上级账号创建')).toBeTruthy();
    expect(rowOf('上级的计划').queryByText('编辑')).toBeNull();
  });

  it('filters the plans due this week', async () => {
    const router = renderTab();
    await screen.findByText('月度保养');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '到期' }));
    fireEvent.click(await screen.findByTitle('本周到期'));
    await waitFor(() => expect(listPlans).toHaveBeenLastCalledWith(expect.objectContaining({ due: 'week' })));
    expect(router.state.location.search).toContain('plan.due=week');
  });

  it('adds a plan for a device with its checklist, one step per line', async () => {
    renderTab();
    await screen.findByText('月度保养');
    fireEvent.click(screen.getByRole('button', { name: /新增保养计划/ }));
    const dialog = within(await screen.findByRole('dialog'));
    // Nothing filled: the schema's messages show, and nothing is sent.
    fireEvent.change(dialog.getByLabelText('计划名称'), { target: { value: '' } });
    fireEvent.click(dialog.getByRole('button', { name: /保\s*存/ }));
    expect(await dialog.findByText('请输入计划名称')).toBeTruthy();
    expect(await dialog.findByText('请输入设备序列号')).toBeTruthy();
    expect(addPlan).not.toHaveBeenCalled();

    fireEvent.change(dialog.getByLabelText('计划名称'), { target: { value: '季度保养' } });
    fireEvent.mouseDown(dialog.getByRole('combobox', { name: '设备类型' }));
    fireEvent.click(await screen.findByTitle('除臭机'));
    fireEvent.change(dialog.getByLabelText('设备序列号'), { target: { value: ' JWB-5 ' } });
    fireEvent.change(dialog.getByLabelText('间隔'), { target: { value: '90' } });
    fireEvent.change(dialog.getByLabelText('检查项'), { target: { value: '补充香薰液\n\n 清洗雾化片 ' } });
    fireEvent.click(dialog.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(addPlan).toHaveBeenCalledTimes(1));
    expect(vi.mocked(addPlan).mock.calls[0]![0]).toMatchObject({
      name: '季度保养',
      equipment_type_id: 1,
      ser_num: 'JWB-5',
      toilet_id: undefined,
      trigger: 'days',
      every: 90,
      checklist: ['补充香薰液', '清洗雾化片'],
      enabled: true,
    });
    // Saved: the list loads again with the new plan.
    await waitFor(() => expect(listPlans).toHaveBeenCalledTimes(2));
  });

  it('assigns a plan to a team instead of a person', async () => {
    renderTab();
    await screen.findByText('月度保养');
    expect(rowOf('班组的计划').getByText('班组 一班')).toBeTruthy();
    fireEvent.click(rowOf('月度保养').getByRole('button', { name: /编\s*辑/ }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByRole('combobox', { name: '负责人' })).toBeTruthy();
    fireEvent.mouseDown(dialog.getByRole('combobox', { name: '维修班组' }));
    fireEvent.click(await screen.findByTitle('一班（张师傅）'));
    // A team's lead gets the order: no person to pick besides.
    await waitFor(() => expect(dialog.queryByRole('combobox', { name: '负责人' })).toBeNull());
    fireEvent.click(dialog.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(updatePlan).toHaveBeenCalledTimes(1));
    expect(vi.mocked(updatePlan).mock.calls[0]![0]).toMatchObject({ id: 1, team_id: 3, assignee_id: null });
  });

  it('asks before deleting a plan', async () => {
    renderTab();
    await screen.findByText('月度保养');
    fireEvent.click(rowOf('月度保养').getByRole('button', { name: /删\s*除/ }));
    expect(await screen.findByText('确定删除保养计划「月度保养」吗？已生成的保养单不受影响。')).toBeTruthy();
    expect(updatePlan).not.toHaveBeenCalled();
    const confirm = screen.getAllByRole('button', { name: /删\s*除|确\s*定/ }).at(-1)!;
    fireEvent.click(confirm);
    await waitFor(() => expect(updatePlan).toHaveBeenCalledWith({ id: 1, is_delete: true }));
  });
});
