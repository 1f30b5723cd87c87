import type { DayRecordRow, SchemeRow } from '@se/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { listDepartments, listEmployees } from '../../api/attendance.ts';
import {
  addScheme,
  correctRecord,
  listHolidays,
  listRecords,
  listSchemes,
} from '../../api/attendance-rules.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { RecordsTab } from './RecordsTab.tsx';
import { SchemesTab } from './SchemesTab.tsx';

vi.mock(import('../../api/attendance.ts'), async (original) => ({
  ...(await original()),
  listDepartments: vi.fn(),
  listEmployees: vi.fn(),
}));
vi.mock(import('../../api/attendance-rules.ts'), async (original) => ({
  ...(await original()),
  listSchemes: vi.fn(),
  addScheme: vi.fn(),
  listHolidays: vi.fn(),
  listRecords: vi.fn(),
  correctRecord: vi.fn(),
}));

const ok = <T,>(data: T) => ({ code: 200, message: '', data });

const scheme = (id: number, over: Partial<SchemeRow> = {}): SchemeRow => ({
  id,
  name: '白班',
  segments: [{ start: '09:00', end: '18:00' }],
  late_grace: 5,
  early_grace: 5,
  earliest_in: 120,
  latest_out: 240,
  workdays: [1, 2, 3, 4, 5],
  follow_holidays: true,
  departments: [],
  employee_count: 0,
  created_at: '2026-11-20 08:00:00',
  ...over,
});

const record = (id: number, over: Partial<DayRecordRow> = {}): DayRecordRow => {
  const r: DayRecordRow = {
    id,
    employee_id: id,
    employee_name: `员工${id}`,
    employee_number: `E${id}`,
    department_id: 2,
    department_name: '保洁部',
    day: '2026-11-20',
    scheme_id: 1,
    scheme_name: '白班',
    status: 'normal',
    late_minutes: 0,
    early_minutes: 0,
    missing: 0,
    due: true,
    present: true,
    decided: [
      { segment: 0, kind: 'in', punch_id: 1, at: '2026-11-20 08:55:00' },
      { segment: 0, kind: 'out', punch_id: 2, at: '2026-11-20 18:02:00' },
    ],
    corrected: false,
    note: '',
    computed: { status: 'normal', late_minutes: 0, early_minutes: 0, missing: 0 },
    ...over,
  };
  return { ...r, computed: { status: r.status, late_minutes: r.late_minutes, early_minutes: 0, missing: 0 } };
};
const noOut = (inAt: string | null): DayRecordRow['decided'] => [
  { segment: 0, kind: 'in', punch_id: inAt ? 1 : null, at: inAt },
  { segment: 0, kind: 'out', punch_id: null, at: null },
];

beforeEach(() => {
  vi.mocked(listDepartments).mockReset().mockResolvedValue(ok([]));
  vi.mocked(listEmployees)
    .mockReset()
    .mockResolvedValue(ok({ list: [], total: 0, page: 1, page_size: 20 }));
  vi.mocked(listSchemes).mockReset();
  vi.mocked(addScheme).mockReset();
  vi.mocked(listHolidays)
    .mockReset()
    .mockResolvedValue(
      ok({ list: [{ day: '2026-10-01', kind: 'holiday', name: '国庆节', source: 'national' }] }),
    );
  vi.mocked(listRecords).mockReset();
  vi.mocked(correctRecord).mockReset();
});

// antd's tables, selects and dialogs take seconds to mount in jsdom on a busy machine.
describe('班次 and 考勤记录 tabs', { timeout: 30_000 }, () => {
  it('班次 shows a night shift as running to the next day, where each scheme applies, and the holidays', async () => {
    vi.mocked(listSchemes).mockResolvedValue(
      ok({
        list: [
          scheme(2, {
            name: '夜班',
            segments: [{ start: '22:00', end: '06:00' }],
            workdays: [1, 2, 3, 4, 5, 6, 7],
            departments: [{ id: 3, name: '夜班组' }],
            employee_count: 2,
          }),
          scheme(1),
        ],
        total: 2,
        page: 1,
        page_size: 10,
      }),
    );
    renderWithProviders(<SchemesTab />, { router: true });
    const night = (await screen.findByText('夜班')).closest('tr')!;
    expect(within(night).getByText('22:00–次日06:00')).toBeTruthy();
    expect(within(night).getByText('每天')).toBeTruthy();
    expect(within(night).getByText('夜班组')).toBeTruthy();
    expect(within(night).getByText('2 名员工')).toBeTruthy();
    const day = screen.getByText('白班').closest('tr')!;
    expect(within(day).getByText('09:00–18:00')).toBeTruthy();
    expect(within(day).getByText('周一至周五')).toBeTruthy();
    expect(within(day).getByText('未分配')).toBeTruthy();
    expect(await screen.findByText('国庆节')).toBeTruthy();
  });

  it('班次: a new scheme is checked before it is sent, then sent with its times and defaults', async () => {
    vi.mocked(listSchemes).mockResolvedValue(ok({ list: [], total: 0, page: 1, page_size: 10 }));
    vi.mocked(addScheme).mockResolvedValue(ok(scheme(9, { name: '早班' })));
    renderWithProviders(<SchemesTab />, { router: true });
    expect(await screen.findByText('暂无班次，新增一个班次后分配给部门或员工')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /新增班次/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('班次名称'), { target: { value: '早班' } });
    fireEvent.change(within(dialog).getByLabelText('上班时间'), { target: { value: '25:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|保\s*存/ }));
    expect(await screen.findByText(/上班时间格式应为 HH:mm/, {}, { timeout: 5000 })).toBeTruthy();
    expect(addScheme).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('上班时间'), { target: { value: '06:00' } });
    fireEvent.change(within(dialog).getByLabelText('下班时间'), { target: { value: '14:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|保\s*存/ }));
    await waitFor(() =>
      expect(addScheme).toHaveBeenCalledWith({
        name: '早班',
        segments: [{ start: '06:00', end: '14:00' }],
        late_grace: 5,
        early_grace: 5,
        earliest_in: 120,
        latest_out: 240,
        workdays: [1, 2, 3, 4, 5],
        follow_holidays: true,
      }),
    );
  });

  it('考勤记录 reads 迟到 with its minutes, 旷工, and today as 未到 / 进行中 rather than 旷工 or 缺卡', async () => {
    vi.mocked(listRecords).mockResolvedValue(
      ok({
        list: [
          record(1, {
            status: 'late',
            late_minutes: 12,
            decided: [
              { segment: 0, kind: 'in', punch_id: 1, at: '2026-11-20 09:12:00' },
              { segment: 0, kind: 'out', punch_id: 2, at: '2026-11-20 18:03:00' },
            ],
          }),
          record(2, { status: 'absent', present: false, decided: noOut(null) }),
          record(3, { status: 'pending', present: false, decided: noOut(null) }),
          record(4, { status: 'pending', late_minutes: 7, decided: noOut('2026-11-20 09:07:00') }),
          record(5, { status: 'unscheduled', scheme_id: null, scheme_name: '', due: false, decided: [] }),
        ],
        total: 5,
        page: 1,
        page_size: 10,
      }),
    );
    renderWithProviders(<RecordsTab />, { router: true });
    const row = async (name: string) => (await screen.findByText(name)).closest('tr')!;
    const late = await row('员工1');
    expect(within(late).getByText('迟到 12 分钟')).toBeTruthy();
    expect(within(late).getByText('09:12')).toBeTruthy();
    const absent = await row('员工2');
    expect(within(absent).getByText('旷工')).toBeTruthy();
    expect(within(absent).getAllByText('未打卡')).toHaveLength(2);
    const notYet = await row('员工3');
    expect(within(notYet).getByText('未到')).toBeTruthy();
    expect(within(notYet).queryByText('旷工')).toBeNull();
    expect(within(notYet).getAllByText('待打卡')).toHaveLength(2);
    const ongoing = await row('员工4');
    expect(within(ongoing).getByText('进行中')).toBeTruthy();
    expect(within(ongoing).getByText('迟到 7 分钟')).toBeTruthy();
    expect(within(ongoing).queryByText(/缺卡/)).toBeNull();
    // No scheme: said so, and nothing to correct.
    const none = await row('员工5');
    expect(within(none).getAllByText('未排班').length).toBeGreaterThan(0);
    expect(within(none).queryByRole('button', { name: /更\s*正/ })).toBeNull();
  });

  it('考勤记录: a correction needs a note, then is sent for that employee and day', async () => {
    vi.mocked(listRecords).mockResolvedValue(
      ok({
        list: [record(2, { status: 'absent', present: false, decided: noOut(null) })],
        total: 1,
        page: 1,
        page_size: 10,
      }),
    );
    vi.mocked(correctRecord).mockResolvedValue(ok(record(2, { corrected: true })));
    renderWithProviders(<RecordsTab />, { router: true });
    const row = (await screen.findByText('员工2')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /更\s*正/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/原计算结果：旷工/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|保\s*存/ }));
    expect(await within(dialog).findByText('请填写更正说明')).toBeTruthy();
    expect(correctRecord).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('更正说明'), { target: { value: '外出办事，已补签' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|保\s*存/ }));
    await waitFor(() =>
      expect(correctRecord).toHaveBeenCalledWith(
        expect.objectContaining({
          employee_id: 2,
          day: '2026-11-20',
          status: 'absent',
          note: '外出办事，已补签',
        }),
      ),
    );
  });
});
