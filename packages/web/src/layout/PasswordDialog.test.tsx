import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../App.tsx';
import { changePassword } from '../api/auth.ts';
import { toast } from '../components/toast.ts';
import { readToken, storeSession } from '../session/storage.ts';
import { ANONYMOUS, useSession } from '../session/store.ts';
import { PasswordDialog } from './PasswordDialog.tsx';

vi.mock(import('../api/auth.ts'), async (original) => ({
  ...(await original()),
  changePassword: vi.fn(),
}));
vi.mock(import('../components/toast.ts'), async (original) => ({
  ...(await original()),
  toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn() },
}));
const call = vi.mocked(changePassword);
const onChanged = vi.fn();

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <UiProvider>
      <button onClick={() => setOpen(true)}>修改密码</button>
      <PasswordDialog open={open} onCancel={() => setOpen(false)} onChanged={onChanged} />
    </UiProvider>
  );
}

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

function openAndFill(old: string, password: string, again = password) {
  render(<Harness />);
  fireEvent.click(screen.getByRole('button', { name: '修改密码' }));
  fill('原密码', old);
  fill('新密码', password);
  fill('确认新密码', again);
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
}

/** The error text shown under the field labelled `label`. */
const errorOf = (label: string) =>
  document.getElementById(`${screen.getByLabelText(label).id}-error`)?.textContent ?? '';

beforeEach(() => {
  call.mockReset();
  onChanged.mockReset();
  for (const fn of Object.values(toast)) vi.mocked(fn).mockReset();
  storeSession('the-session-token', 'zhang');
  useSession.getState().signIn({ userName: 'zhang', permission: 2, userID: 4 });
});

describe('修改密码 dialog', () => {
  it('sends the three fields; on success forgets the session, says so and leaves', async () => {
    call.mockResolvedValue({ code: 200, message: '成功', data: null });
    openAndFill('old-password-1', 'fresh-Horse-9');
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    expect(call).toHaveBeenCalledWith({
      old_password: 'old-password-1',
      password1: 'fresh-Horse-9',
      password2: 'fresh-Horse-9',
    });
    expect(toast.success).toHaveBeenCalledWith('密码已修改，请重新登录');
    expect(readToken()).toBe('');
    expect(useSession.getState().userName).toBe(ANONYMOUS);
  });

  it('checks the form before calling: the two new passwords must match, 8 characters at least', async () => {
    openAndFill('old-password-1', 'fresh-Horse-9', 'fresh-Horse-8');
    await waitFor(() => expect(errorOf('确认新密码')).toBe('两次输入的密码不一致'));
    fill('新密码', 'short');
    fill('确认新密码', 'short');
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(errorOf('新密码')).toBe('密码长度不能少于8个字符'));
    expect(call).not.toHaveBeenCalled();
  });

  it.each([
    {
      message: '原密码错误',
      old: 'not-it-at-all',
      password: 'fresh-Horse-9',
      under: '原密码',
      not: '新密码',
    },
    {
      message: '密码过于常见，请换一个更难猜的密码',
      old: 'old-password-1',
      password: 'password123',
      under: '新密码',
      not: '原密码',
    },
  ])('shows the refusal $message under $under and keeps the session and the dialog', async (c) => {
    call.mockResolvedValue({ code: 400, message: c.message, data: null });
    openAndFill(c.old, c.password);
    await waitFor(() => expect(errorOf(c.under)).toBe(c.message));
    expect(errorOf(c.not)).toBe('');
    expect(onChanged).not.toHaveBeenCalled();
    expect(readToken()).toBe('the-session-token');
    expect(screen.getByLabelText('原密码')).toBeTruthy();
  });

  it('says a lock-out as a warning', async () => {
    const message = '登录失败次数过多，账号在当前网络已锁定，请15分钟后再试';
    call.mockResolvedValue({ code: 429, message, data: null });
    openAndFill('not-it-at-all', 'fresh-Horse-9');
    await waitFor(() => expect(toast.warning).toHaveBeenCalledWith(message));
    expect(onChanged).not.toHaveBeenCalled();
  });
});
