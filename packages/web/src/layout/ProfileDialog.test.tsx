import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../App.tsx';
import { ApiError } from '../api/client.ts';
import { confirmEmail, getUserInfo, updateUserInfo } from '../api/user.ts';
import { toast } from '../components/toast.ts';
import { useSession } from '../session/store.ts';
import { onlyDigits } from '../components/contact-fields.ts';
import { profileFromInfo, useProfileDialog } from './ProfileDialog.tsx';

vi.mock(import('../api/user.ts'), () => ({
  getUserInfo: vi.fn(),
  updateUserInfo: vi.fn(),
  confirmEmail: vi.fn(),
}));
vi.mock(import('../components/toast.ts'), async (original) => ({
  ...(await original()),
  toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn() },
}));
const loadInfo = vi.mocked(getUserInfo);
const saveInfo = vi.mocked(updateUserInfo);
const confirm = vi.mocked(confirmEmail);

const info = {
  id: 4,
  is_delete: false,
  user_name: 'zhang',
  phone_num: '13800000000',
  company_name: '东方物业',
  company_address: '上海市浦东新区',
  email: 'zhang@example.com',
  pending_email: '',
  info: { company_name: '东方物业', company_address: '上海市浦东新区' },
};

function Harness() {
  const profile = useProfileDialog();
  return (
    <UiProvider>
      <button onClick={profile.open}>修改信息</button>
      {profile.element}
    </UiProvider>
  );
}

const openDialog = () => fireEvent.click(screen.getByRole('button', { name: '修改信息' }));
const dialog = () => document.querySelector<HTMLElement>('.ant-modal');
// A closed dialog leaves nothing behind, or (while it animates out) a hidden wrapper.
const isOpen = () => {
  const wrap = document.querySelector<HTMLElement>('.ant-modal-wrap');
  return !!wrap && wrap.style.display !== 'none';
};

beforeEach(() => {
  loadInfo.mockReset();
  saveInfo.mockReset();
  confirm.mockReset();
  for (const fn of Object.values(toast)) vi.mocked(fn).mockReset();
  useSession.getState().signIn({ userName: 'zhang', permission: 2, userID: 4 });
});

describe('profile dialog 修改信息', () => {
  it('opens only after the user info has loaded, filled in, with the spec buttons', async () => {
    loadInfo.mockResolvedValue({ code: 200, message: '', data: info });
    render(<Harness />);
    expect(isOpen()).toBe(false);
    openDialog();

    await waitFor(() => expect(isOpen()).toBe(true));
    const phone = screen.getByLabelText<HTMLInputElement>('联系电话');
    expect(loadInfo).toHaveBeenCalledWith(4);
    expect(screen.getByLabelText<HTMLInputElement>('用户名').value).toBe('zhang');
    expect(screen.getByLabelText<HTMLInputElement>('用户名').disabled).toBe(true);
    expect(phone.value).toBe('13800000000');
    expect(screen.getByLabelText<HTMLTextAreaElement>('公司名称').value).toBe('东方物业');
    expect(screen.getByRole('button', { name: '取 消' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '确定' })).toBeTruthy();
    expect(dialog()?.style.width).toBe('95%');
  });

  it('shows a pending e-mail as 待确认 and lets the owner confirm it with the mailed code', async () => {
    loadInfo.mockResolvedValue({
      code: 200,
      message: '',
      data: { ...info, pending_email: 'new@example.com' },
    });
    confirm.mockResolvedValue({
      code: 200,
      message: '',
      data: { email: 'new@example.com', pending_email: '' } as never,
    });
    render(<Harness />);
    openDialog();
    expect((await screen.findByLabelText<HTMLInputElement>('邮箱')).value).toBe('zhang@example.com');
    expect(screen.getByText('待确认：new@example.com')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('新邮箱验证码'), { target: { value: '12a3456' } });
    fireEvent.click(screen.getByRole('button', { name: '确认邮箱' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('邮箱已变更'));
    expect(confirm).toHaveBeenCalledWith('123456');
    await waitFor(() => expect(screen.queryByText('待确认：new@example.com')).toBeNull());
    expect(screen.getByLabelText<HTMLInputElement>('邮箱').value).toBe('new@example.com');
  });

  it('shows the server message as a warning and no dialog when loading is refused', async () => {
    loadInfo.mockResolvedValue({ code: 404, message: '用户不存在', data: null as never });
    render(<Harness />);
    openDialog();
    await waitFor(() => expect(toast.warning).toHaveBeenCalledWith('用户不存在'));
    expect(isOpen()).toBe(false);
  });

  it('shows an error when the info cannot be loaded at all', async () => {
    loadInfo.mockRejectedValue(new ApiError('network', 'Network Error'));
    render(<Harness />);
    openDialog();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('网络错误'));
  });

  it('accepts only digits as phone number and saves company, address and phone', async () => {
    loadInfo.mockResolvedValue({ code: 200, message: '', data: info });
    saveInfo.mockResolvedValue({ code: 200, message: '', data: info });
    render(<Harness />);
    openDialog();
    const phone = await screen.findByLabelText<HTMLInputElement>('联系电话');
    fireEvent.change(phone, { target: { value: '021-6123 abc4567' } });
    expect(phone.value).toBe('02161234567');
    fireEvent.change(screen.getByLabelText('公司地址'), { target: { value: '北京市朝阳区' } });
    fireEvent.click(screen.getByRole('button', { name: '确定' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalled());
    expect(saveInfo).toHaveBeenCalledWith({
      company_name: '东方物业',
      company_address: '北京市朝阳区',
      phone_num: '02161234567',
    });
  });

  it('warns with the server message when saving is refused, and says 网络错误 when offline', async () => {
    loadInfo.mockResolvedValue({ code: 200, message: '', data: info });
    saveInfo.mockResolvedValueOnce({ code: 400, message: '公司名称不能超过200个字符', data: null as never });
    saveInfo.mockRejectedValueOnce(new ApiError('network', 'Network Error'));
    render(<Harness />);

    openDialog();
    fireEvent.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(toast.warning).toHaveBeenCalledWith('公司名称不能超过200个字符'));

    openDialog();
    await waitFor(() => expect(loadInfo).toHaveBeenCalledTimes(2));
    fireEvent.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('网络错误'));
  });
});

describe('profile helpers', () => {
  it('uses empty fields when the answer holds nothing usable', () => {
    expect(profileFromInfo(null, 'zhang')).toEqual({
      user_name: 'zhang',
      email: '',
      pending_email: '',
      phone_num: '',
      company_name: '',
      company_address: '',
    });
  });

  it('keeps digits only', () => {
    expect(onlyDigits('+86 138-0000')).toBe('861380000');
  });
});
