import { PERMISSION, type UserRow } from '@se/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../../App.tsx';
import { updateUser } from '../../api/users.ts';
import { useSession } from '../../session/store.ts';
import { RolePicker, RoleTags } from './RolePicker.tsx';
import { UserFormDialog, type UserDialogTarget } from './UserFormDialog.tsx';

const { withStubs } = await vi.hoisted(() => import('../../test-mock.ts'));
vi.mock(import('../../api/users.ts'), (original) => withStubs(original, ['updateUser']));

const P = PERMISSION;
const admin = { userName: 'admin', permission: P.superSaled, userID: 1 };

const row = (over: Partial<UserRow> = {}): UserRow => ({
  id: 7,
  is_delete: false,
  user_name: 'dealer7',
  email: 'd7@example.com',
  pending_email: '',
  phone_num: '13800000000',
  permissions: P.dealer | P.user | P.visitor,
  org_id: null,
  org_name: '',
  services: 1,
  message_count: 0,
  parent_id: 1,
  parent_name: 'admin',
  backend_manager: false,
  company_name: '',
  created_at: '2025-01-01 08:00:00',
  ...over,
});

const box = (label: string) => screen.getByRole('checkbox', { name: label }) as HTMLInputElement;

function Picker({
  callerMask,
  start = 0,
  callerBm,
  targetBm,
}: {
  callerMask: number;
  start?: number;
  callerBm?: boolean;
  targetBm?: boolean;
}) {
  const [mask, setMask] = useState(start);
  return (
    <UiProvider>
      <RolePicker
        callerMask={callerMask}
        callerBm={callerBm}
        targetBm={targetBm}
        self={false}
        value={mask}
        onChange={setMask}
      />
      <output>{mask}</output>
    </UiProvider>
  );
}

const dialog = (target: UserDialogTarget) =>
  render(
    <UiProvider>
      <UserFormDialog target={target} onSaved={() => {}} onClosed={() => {}} />
    </UiProvider>,
  );

beforeEach(() => {
  useSession.getState().signIn(admin);
});

describe('role picker', () => {
  it('ticks 用户 and 游客 along with 经销商 for an admin, and lets them be unticked', () => {
    render(<Picker callerMask={P.superSaled} />);
    fireEvent.click(box('经销商'));
    expect(box('经销商').checked).toBe(true);
    expect(box('用户').checked).toBe(true);
    expect(box('游客').checked).toBe(true);
    fireEvent.click(box('游客'));
    expect(box('游客').checked).toBe(false);
    expect(box('经销商').checked).toBe(true);
    expect(screen.getByRole('status').textContent).toBe(String(P.dealer | P.user));
  });

  it('lets a backend manager make an OEM, and an OEM not', () => {
    const { unmount } = render(<Picker callerMask={P.superSaled} callerBm targetBm={false} />);
    expect(box('OEM').disabled).toBe(false);
    fireEvent.click(box('OEM'));
    expect(box('OEM').checked).toBe(true);
    // The account it creates is an OEM, not a second backend manager.
    expect(box('后台管理员(厕所)').checked).toBe(false);
    expect(screen.getByRole('status').textContent).toBe(String(P.oemer));
    unmount();
    render(<Picker callerMask={P.oemer} callerBm={false} targetBm={false} />);
    for (const label of ['OEM', '流媒体', '考勤', '后台管理员(厕所)']) expect(box(label).disabled).toBe(true);
    expect(box('经销商').disabled).toBe(false);
  });

  it('shows the roles a dealer cannot assign, disabled', () => {
    render(<Picker callerMask={P.dealer | P.user | P.visitor} />);
    expect(box('用户').disabled).toBe(false);
    expect(box('游客').disabled).toBe(false);
    expect(box('经销商').disabled).toBe(true);
    expect(box('开发者').disabled).toBe(true);
  });

  it('keeps a role the caller cannot assign ticked through other changes', () => {
    render(<Picker callerMask={P.superSaled} start={P.ssVisitor} />);
    expect(box('园区游客').checked).toBe(true);
    fireEvent.click(box('用户'));
    expect(box('园区游客').checked).toBe(true);
    expect(screen.getByRole('status').textContent).toBe(String(P.ssVisitor | P.user | P.visitor));
  });
});

describe('role tags', () => {
  it('say 无角色 for a user without roles and fold long lists', () => {
    render(
      <UiProvider>
        <RoleTags mask={0} />
        <RoleTags mask={P.develop} />
      </UiProvider>,
    );
    expect(screen.getByText('无角色')).toBeTruthy();
    expect(screen.getByText('开发者')).toBeTruthy();
    expect(screen.getByText('+11')).toBeTruthy();
  });
});

describe('user dialog', () => {
  it('edits someone else: assignable roles and both services can change', async () => {
    dialog({ mode: 'edit', user: row() });
    await screen.findByText('编辑用户 dealer7');
    expect((screen.getByLabelText('用户名') as HTMLInputElement).value).toBe('dealer7');
    expect(screen.queryByLabelText('密码')).toBeNull();
    expect(box('经销商').checked).toBe(true);
    expect(box('经销商').disabled).toBe(false);
    expect(box('园区用户').disabled).toBe(true);
    expect(box('除臭机周报服务').disabled).toBe(false);
    expect(box('智慧厕所周报服务').disabled).toBe(false);
  });

  it('shows the caller’s own roles and services read-only', async () => {
    dialog({ mode: 'edit', user: row({ id: admin.userID, user_name: 'admin', permissions: P.superSaled }) });
    await screen.findByText('不能修改自己的角色和服务');
    expect(box('OEM').checked).toBe(true);
    expect(box('OEM').disabled).toBe(true);
    expect(box('游客').disabled).toBe(true);
    expect(box('除臭机周报服务').disabled).toBe(true);
    expect((screen.getByLabelText('用户名') as HTMLInputElement).disabled).toBe(false);
  });

  it('asks for a password and at least one role before adding, without calling the server', async () => {
    dialog({ mode: 'add' });
    await screen.findByText('新增用户');
    expect(screen.queryByRole('checkbox', { name: '除臭机周报服务' })).toBeNull();
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'li' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(screen.getByText('请至少选择一个角色')).toBeTruthy(), { timeout: 5000 });
    expect(screen.getByText('密码长度不能少于8个字符')).toBeTruthy();
  });

  it('shows a pending e-mail: only its owner gets the code field', async () => {
    const pending = row({ pending_email: 'new7@example.com' });
    const other = dialog({ mode: 'edit', user: pending });
    expect(await screen.findByText('待确认：new7@example.com')).toBeTruthy();
    expect(screen.queryByLabelText('新邮箱验证码')).toBeNull();
    other.unmount();
    dialog({ mode: 'edit', user: { ...pending, id: admin.userID } });
    expect(await screen.findByLabelText('新邮箱验证码')).toBeTruthy();
  });

  it('refuses a user name that looks like a phone number or an e-mail', async () => {
    dialog({ mode: 'edit', user: row() });
    const name = await screen.findByLabelText('用户名');
    fireEvent.change(name, { target: { value: '13800000000' } });
    expect(await screen.findByText(/用户名不能像手机号/)).toBeTruthy();
    fireEvent.change(name, { target: { value: 'a@b.cn' } });
    expect(await screen.findByText(/用户名不能是邮箱地址/)).toBeTruthy();
  });

  it('checks e-mail and phone with the server’s rules', async () => {
    dialog({ mode: 'edit', user: row() });
    await screen.findByText('编辑用户 dealer7');
    fireEvent.change(screen.getByLabelText('邮箱'), { target: { value: 'not-an-email' } });
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(screen.getByText('邮箱格式不正确')).toBeTruthy());
    expect(screen.getByText('用户名长度不能少于2个字符')).toBeTruthy();
  });

  it('moves an account to another organisation, sending only the new organisation', async () => {
    useSession.getState().signIn({ userName: 'campus_admin', permission: P.ssSuperSaled, userID: 1 });
    vi.mocked(updateUser).mockResolvedValue({ code: 200, message: '', data: row() });
    dialog({
      mode: 'edit',
      user: row({ permissions: P.ssUser, org_id: 3, org_name: '西湖大学', services: 0 }),
    });
    const org = (await screen.findByLabelText('所属组织ID')) as HTMLInputElement;
    expect(org.value).toBe('3');
    fireEvent.change(org, { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存|确\s*定/ }));
    await waitFor(() => expect(updateUser).toHaveBeenCalled());
    expect(vi.mocked(updateUser).mock.lastCall?.[0]).toEqual({
      id: 7,
      user_name: 'dealer7',
      email: 'd7@example.com',
      phone_num: '13800000000',
      org_id: 5,
    });
  });

  it('offers no organisation to a dealer editing an account outside every organisation', async () => {
    useSession
      .getState()
      .signIn({ userName: 'dealer', permission: P.dealer | P.user | P.visitor, userID: 1 });
    dialog({ mode: 'edit', user: row({ permissions: P.user | P.visitor }) });
    await screen.findByText('编辑用户 dealer7');
    expect(screen.queryByLabelText('所属组织ID')).toBeNull();
  });
});
