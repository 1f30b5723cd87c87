import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../../App.tsx';
import { sendEmailCaptcha, signup } from '../../api/auth.ts';
import { toast } from '../../components/toast.ts';
import Register from './Register.tsx';

vi.mock(import('../../api/auth.ts'), async (original) => ({
  ...(await original()),
  signup: vi.fn(),
  sendEmailCaptcha: vi.fn(),
}));
vi.mock(import('../../components/toast.ts'), async (original) => ({
  ...(await original()),
  toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn() },
}));

function renderRegister() {
  const router = createMemoryRouter(
    [
      {
        path: '/register',
        element: (
          <UiProvider>
            <Register />
          </UiProvider>
        ),
      },
      { path: '/login', element: <p>login page</p> },
    ],
    { initialEntries: ['/register'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => {
  vi.mocked(signup).mockReset();
  vi.mocked(sendEmailCaptcha).mockReset();
  vi.mocked(toast.success).mockReset();
});

describe('register', () => {
  it('checks the address before sending a captcha, then counts 60 s down', async () => {
    vi.mocked(sendEmailCaptcha).mockResolvedValue({ code: 200, message: '', data: { resend_after: 60 } });
    renderRegister();
    fireEvent.click(screen.getByRole('button', { name: '发送验证码' }));
    expect(await screen.findByText('邮箱格式不正确')).toBeTruthy();
    expect(sendEmailCaptcha).not.toHaveBeenCalled();

    fill('邮箱', ' Ops@Example.CN ');
    fireEvent.click(screen.getByRole('button', { name: '发送验证码' }));
    const waiting = (await screen.findByText('60 秒后重发')).closest('button');
    expect(waiting?.disabled).toBe(true);
    expect(sendEmailCaptcha).toHaveBeenCalledWith('ops@example.cn', 'signup');
  });

  it('says when the two passwords differ', async () => {
    renderRegister();
    fill('密码', 'password-1');
    fill('确认密码', 'password-2');
    fireEvent.blur(screen.getByLabelText('确认密码'));
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
  });

  it('signs up with the five fields and goes to /login with a success message', async () => {
    vi.mocked(signup).mockResolvedValue({ code: 200, message: '', data: { user_id: 12 } });
    const router = renderRegister();
    fill('邮箱', 'ops@example.cn');
    fill('邮箱验证码', '123456');
    fill('用户名', 'ops_1');
    fill('密码', 'password-1');
    fill('确认密码', 'password-1');
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: '注册' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(signup).toHaveBeenCalledWith({
      email: 'ops@example.cn',
      email_captcha: '123456',
      user_name: 'ops_1',
      password1: 'password-1',
      password2: 'password-1',
    });
    expect(toast.success).toHaveBeenCalledWith('注册成功，请登录');
  });

  it('asks for the agreement before signing up', async () => {
    renderRegister();
    fill('邮箱', 'ops@example.cn');
    fill('邮箱验证码', '123456');
    fill('用户名', 'ops_1');
    fill('密码', 'password-1');
    fill('确认密码', 'password-1');
    fireEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('请阅读并同意用户协议与隐私声明')).toBeTruthy();
    expect(signup).not.toHaveBeenCalled();
  });
});
