import type { DepartmentRow, EmployeeRow } from '@se/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  deleteDepartment,
  deleteEmployee,
  listDepartments,
  listEmployees,
  updateEmployee,
} from '../../api/attendance.ts';
import { toast } from '../../components/toast.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { EmployeesTab } from './EmployeesTab.tsx';
import { OrganizationTab } from './OrganizationTab.tsx';

vi.mock(import('../../components/toast.ts'), async (original) => ({
  ...(await original()),
  toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn() },
}));
vi.mock(import('../../api/attendance.ts'), async (original) => ({
  ...(await original()),
  listDepartments: vi.fn(),
  deleteDepartment: vi.fn(),
  listEmployees: vi.fn(),
  deleteEmployee: vi.fn(),
  updateEmployee: vi.fn(),
}));

const dept = (
  id: number,
  parent_id: number | null,
  name: string,
  over: Partial<DepartmentRow> = {},
): DepartmentRow => ({
  id,
  parent_id,
  name,
  head_employee_id: null,
  head_name: '',
  path: parent_id === null ? `/${id}/` : `/1/${id}/`,
  sort: 0,
  employee_count: 0,
  total_count: 0,
  ...over,
});

const TREE = [
  dept(1, null, '西湖环卫', { total_count: 3 }),
  dept(2, 1, '保洁部', { employee_count: 3, total_count: 3, head_employee_id: 5, head_name: '王军' }),
  dept(3, 1, '行政部'),
];

const emp = (id: number, over: Partial<EmployeeRow> = {}): EmployeeRow => ({
  id,
  org_id: 1,
  department_id: 2,
  department_name: '保洁部',
  number: `E${id}`,
  name: `员工${id}`,
  position: '保洁员',
  phone: '',
  id_card: '',
  badge_no: '',
  face_id: '',
  hire_date: null,
  status: 1,
  scheme_id: null,
  user_id: null,
  user_name: '',
  created_at: '2026-11-20 08:00:00',
  ...over,
});

const ok = <T,>(data: T) => ({ code: 200, message: '', data });

beforeEach(() => {
  vi.mocked(listDepartments).mockReset().mockResolvedValue(ok(TREE));
  vi.mocked(deleteDepartment).mockReset();
  vi.mocked(listEmployees).mockReset();
  vi.mocked(deleteEmployee).mockReset();
  vi.mocked(updateEmployee).mockReset();
  for (const fn of Object.values(toast)) vi.mocked(fn).mockReset();
});

// antd's tree, table and popovers take seconds to mount in jsdom on a busy machine.
describe('attendance tabs', { timeout: 30_000 }, () => {
  it('组织架构 shows each department with its head count and head, and says why a delete is refused', async () => {
    vi.mocked(deleteDepartment).mockResolvedValue({
      code: 400,
      message: '该部门下还有3 名在职员工，请先移走后再删除',
      data: null as never,
    });
    renderWithProviders(<OrganizationTab />);
    const tree = await screen.findByRole('tree', { name: '组织架构' });
    const row = (await within(tree).findByText('保洁部')).closest('.ant-tree-treenode') as HTMLElement;
    expect(within(row).getByText('3 人')).toBeTruthy();
    expect(within(row).getByText('负责人：王军')).toBeTruthy();
    // Nothing selected: only 新增 works; the root is never deletable.
    expect(screen.getByRole('button', { name: /删\s*除/ }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(within(row).getByText('保洁部'));
    fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    // It asks first, then shows the server's reason.
    expect(await screen.findByText('确定删除部门「保洁部」吗？')).toBeTruthy();
    expect(deleteDepartment).not.toHaveBeenCalled();
    fireEvent.click(screen.getAllByRole('button', { name: /删\s*除/ }).at(-1)!);
    await waitFor(() => expect(deleteDepartment).toHaveBeenCalledWith(2));
    await waitFor(() =>
      expect(toast.warning).toHaveBeenCalledWith('该部门下还有3 名在职员工，请先移走后再删除'),
    );
    // Still there: a refused delete changes nothing on screen.
    expect(within(tree).getByText('保洁部')).toBeTruthy();
  });

  it('员工管理 sends the trimmed search from page 1, and shows the empty state', async () => {
    vi.mocked(listEmployees).mockResolvedValue(
      ok({ list: [emp(1), emp(2, { status: 2 })], total: 2, page: 1, page_size: 10 }),
    );
    renderWithProviders(<EmployeesTab />, { router: true });
    await screen.findByText('员工1');
    expect(screen.getByText('离职')).toBeTruthy();
    vi.mocked(listEmployees).mockResolvedValue(ok({ list: [], total: 0, page: 1, page_size: 10 }));
    fireEvent.change(screen.getByPlaceholderText('姓名、工号、手机号、卡号'), { target: { value: '  周 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(vi.mocked(listEmployees).mock.lastCall?.[0]).toMatchObject({ keywords: '周', page: 1 }),
    );
    expect(await screen.findByText('没有符合条件的员工')).toBeTruthy();
  });

  it('员工管理 asks before deleting an employee', async () => {
    vi.mocked(listEmployees).mockResolvedValue(ok({ list: [emp(7)], total: 1, page: 1, page_size: 10 }));
    vi.mocked(deleteEmployee).mockResolvedValue(ok({ id: 7 }));
    renderWithProviders(<EmployeesTab />, { router: true });
    const row = (await screen.findByText('员工7')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    expect(await screen.findByText(/删除仅用于误录入/)).toBeTruthy();
    expect(deleteEmployee).not.toHaveBeenCalled();
    fireEvent.click(screen.getAllByRole('button', { name: /删\s*除/ }).at(-1)!);
    await waitFor(() => expect(deleteEmployee).toHaveBeenCalledWith(7));
  });

  it('员工管理 saves an employee without a linked account (the empty 关联账号ID box is no error)', async () => {
    vi.mocked(listEmployees).mockResolvedValue(ok({ list: [emp(8)], total: 1, page: 1, page_size: 10 }));
    vi.mocked(updateEmployee).mockResolvedValue(ok(emp(8)));
    renderWithProviders(<EmployeesTab />, { router: true });
    const row = (await screen.findByText('员工8')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    expect(((await screen.findByLabelText('关联账号ID')) as HTMLInputElement).value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(vi.mocked(updateEmployee).mock.lastCall?.[0]).toMatchObject({ id: 8, user_id: 0 }),
    );
    expect(screen.queryByText('关联账号必须是整数')).toBeNull();
  });

  it('员工管理 links an employee to its console account, and shows a refused link under the field', async () => {
    vi.mocked(listEmployees).mockResolvedValue(ok({ list: [emp(7)], total: 1, page: 1, page_size: 10 }));
    vi.mocked(updateEmployee).mockResolvedValue({
      code: 409,
      message: '该账号已关联员工「张工」',
      data: null as never,
    });
    renderWithProviders(<EmployeesTab />, { router: true });
    const row = (await screen.findByText('员工7')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const field = await screen.findByLabelText('关联账号ID');
    fireEvent.change(field, { target: { value: '21' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(vi.mocked(updateEmployee).mock.lastCall?.[0]).toMatchObject({ id: 7, user_id: 21 }),
    );
    expect(
      await screen.findByText('该账号已关联员工「张工」', { selector: '.ant-form-item-explain-error' }),
    ).toBeTruthy();
  });
});
