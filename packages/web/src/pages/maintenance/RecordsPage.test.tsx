import type { RecordDetail, RecordRow } from '@se/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  acceptRecord,
  checkStep,
  getRecord,
  listAssignees,
  listEquipmentTypes,
  listFaultTypes,
  listPlans,
  listRecords,
  maintenanceStats,
} from '../../api/maintenance.ts';
import { listToilets } from '../../api/toilets.ts';
import { withProviders } from '../../test-render.tsx';
import RecordsPage from './RecordsPage.tsx';

vi.mock(import('../../api/maintenance.ts'), async (original) => ({
  ...(await original()),
  listRecords: vi.fn(),
  maintenanceStats: vi.fn(),
  getRecord: vi.fn(),
  checkStep: vi.fn(),
  acceptRecord: vi.fn(),
  listAssignees: vi.fn(),
  listEquipmentTypes: vi.fn(),
  listFaultTypes: vi.fn(),
  listPlans: vi.fn(),
}));
vi.mock(import('../../api/toilets.ts'), async (original) => ({
  ...(await original()),
  listToilets: vi.fn(),
}));

const ok = <T,>(data: T) => ({ code: 200, message: '', data });
const page = <T,>(list: T[]) => ok({ list, total: list.length, page: 1, page_size: 10 });

const record = (id: number, over: Partial<RecordRow> = {}): RecordRow => ({
  id,
  no: `WX${String(id).padStart(6, '0')}`,
  kind: 'repair',
  status: 1,
  device_id: 5,
  ser_num: `JWB-${id}`,
  device_kind: 'jwb',
  toilet_id: 7,
  toilet_name: '西湖公厕',
  part_id: null,
  part_name: '',
  alarm_id: null,
  equipment_type_id: 1,
  equipment_type_name: '除臭机',
  fault_type_id: 2,
  fault_type_name: '缺液',
  severity: 0,
  description: '液位低',
  reporter_id: 2,
  reporter_name: 'dealer',
  assignee_id: 3,
  assignee_name: 'tech',
  team_id: null,
  team_name: '',
  created_at: '2026-11-20 08:00:00',
  due_at: '2099-11-21 08:00:00',
  overdue: false,
  finished_at: null,
  remedy: '',
  parts_replaced: '',
  cost: 0,
  minutes_spent: 0,
  photo_count: 0,
  ...over,
});

const upkeep = record(2, {
  kind: 'upkeep',
  fault_type_id: null,
  fault_type_name: '',
  description: '计划保养「月度保养」：每 30 天',
  team_id: 6,
  team_name: '保洁一班',
});

const detailOf = (r: RecordRow, steps: boolean[], can: Partial<RecordDetail['can']> = {}): RecordDetail => ({
  record: r,
  events: [],
  shipments: [],
  plan_id: 4,
  checklist: steps.map((done, n) => ({
    step: ['补充香薰液', '清洗雾化片'][n]!,
    done,
    by: done ? 'tech' : '',
    at: done ? '2026-11-20 09:30:00' : '',
  })),
  can: { assign: false, complete: true, accept: false, cancel: true, check: true, ...can },
});

beforeEach(() => {
  vi.mocked(listRecords)
    .mockReset()
    .mockResolvedValue(page([record(1, { overdue: true, due_at: '2026-11-20 10:00:00' }), upkeep]));
  vi.mocked(maintenanceStats).mockResolvedValue(ok({ open: 2, overdue: 1, mttr: [], top_devices: [] }));
  vi.mocked(getRecord)
    .mockReset()
    .mockResolvedValue(ok(detailOf(upkeep, [false, false])));
  vi.mocked(checkStep)
    .mockReset()
    .mockResolvedValue(ok(detailOf(upkeep, [true, false])));
  vi.mocked(acceptRecord).mockReset();
  vi.mocked(listAssignees).mockResolvedValue(ok([]));
  vi.mocked(listEquipmentTypes).mockResolvedValue(page([]));
  vi.mocked(listFaultTypes).mockResolvedValue(page([]));
  vi.mocked(listPlans).mockReset().mockResolvedValue(page([]));
  vi.mocked(listToilets).mockResolvedValue(page([]));
});

function renderPage(entry = '/maintenance-records') {
  const router = createMemoryRouter(
    [
      { path: '/maintenance-records', element: withProviders(<RecordsPage />) },
      { path: '/add-maintenance-record', element: <p>add record</p> },
    ],
    { initialEntries: [entry] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const rowOf = (text: string) => within(screen.getByText(text).closest('tr')!);

describe('/maintenance-records', { timeout: 30_000 }, () => {
  it('marks overdue orders red and 保养 orders as such', async () => {
    renderPage();
    await screen.findByText('WX000001');
    expect(rowOf('WX000001').getByText(/^已超时/)).toBeTruthy();
    expect(rowOf('WX000002').getByText('保养')).toBeTruthy();
    expect(rowOf('WX000002').getByText(/^剩/)).toBeTruthy();
  });

  it("names a device order's toilet under the device, and a toilet order's part after the toilet", async () => {
    vi.mocked(listRecords).mockResolvedValue(
      page([
        record(1),
        record(3, { device_id: null, ser_num: '', device_kind: '', part_id: 9, part_name: '女厕 3 号门锁' }),
        record(4, { toilet_id: null, toilet_name: '' }),
      ]),
    );
    renderPage();
    await screen.findByText('WX000001');
    expect(rowOf('WX000001').getByText('JWB-1')).toBeTruthy();
    expect(rowOf('WX000001').getByText('西湖公厕')).toBeTruthy();
    expect(screen.getByText('WX000003').closest('tr')!.textContent).toContain('西湖公厕 女厕 3 号门锁');
    expect(rowOf('WX000004').getByText('JWB-4')).toBeTruthy();
    expect(rowOf('WX000004').queryByText('西湖公厕')).toBeNull();
  });

  it('sends the chosen filters: 保养 orders only, overdue only', async () => {
    const router = renderPage();
    await screen.findByText('WX000001');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '类型' }));
    fireEvent.click(await screen.findByTitle('保养'));
    fireEvent.click(screen.getByRole('checkbox', { name: '只看超时' }));
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(listRecords).toHaveBeenLastCalledWith(
        expect.objectContaining({ kind: 'upkeep', overdue: true }),
      ),
    );
    expect(router.state.location.search).toContain('kind=upkeep');
  });

  it('shows the team (维修班组) an order went to in its row and in its drawer', async () => {
    renderPage();
    await screen.findByText('WX000002');
    expect(rowOf('WX000002').getByText('班组：保洁一班')).toBeTruthy();
    expect(rowOf('WX000001').queryByText(/班组/)).toBeNull();
    fireEvent.click(rowOf('WX000002').getByRole('button', { name: /详\s*情/ }));
    const drawer = within(await screen.findByRole('dialog'));
    const item = await drawer.findByText('维修班组');
    expect(item.closest('tr')!.textContent).toContain('保洁一班');
  });

  it("ticks a 保养 order's checklist step by step in its drawer", async () => {
    renderPage();
    await screen.findByText('WX000002');
    fireEvent.click(rowOf('WX000002').getByRole('button', { name: /详\s*情/ }));
    const list = within(await screen.findByLabelText('检查项'));
    expect(list.getByText('还有 2 项')).toBeTruthy();
    fireEvent.click(list.getByRole('checkbox', { name: /补充香薰液/ }));
    await waitFor(() => expect(checkStep).toHaveBeenCalledWith({ id: 2, n: 0, done: true }));
    expect(await list.findByText('还有 1 项')).toBeTruthy();
    expect(list.getByText('tech 11-20 09:30')).toBeTruthy();
  });

  it('leaves the checklist read-only when the order is not in progress', async () => {
    vi.mocked(getRecord).mockResolvedValue(
      ok(detailOf({ ...upkeep, status: 2 }, [true, true], { check: false, complete: false, accept: true })),
    );
    renderPage();
    await screen.findByText('WX000002');
    fireEvent.click(rowOf('WX000002').getByRole('button', { name: /详\s*情/ }));
    const list = within(await screen.findByLabelText('检查项'));
    expect(list.getByText('已全部完成')).toBeTruthy();
    for (const box of list.getAllByRole('checkbox')) expect((box as HTMLInputElement).disabled).toBe(true);
    // Acceptance asks first.
    fireEvent.click(screen.getByRole('button', { name: '验收通过' }));
    expect(await screen.findByText('确认 WX000002 已修好并验收通过吗？')).toBeTruthy();
    expect(acceptRecord).not.toHaveBeenCalled();
  });

  it('opens the plans on the 保养计划 tab and keeps it in the URL', async () => {
    const router = renderPage();
    await screen.findByText('WX000001');
    fireEvent.click(screen.getByRole('tab', { name: '保养计划' }));
    expect(await screen.findByText('暂无保养计划')).toBeTruthy();
    expect(listPlans).toHaveBeenCalled();
    expect(router.state.location.search).toContain('tab=plans');
  });
});
