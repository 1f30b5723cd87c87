import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../../App.tsx';
import { login } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { RouterNav } from '../../navigation/RouterNav.tsx';
import { toast } from '../../components/toast.ts';
import { useSession } from '../../session/store.ts';
import { LoginForm } from './LoginForm.tsx';

vi.mock(import('../../api/auth.ts'), async (original) => ({ ...(await original()), login: vi.fn() }));
vi.mock(import('../../components/toast.ts'), async (original) => ({
  ...(await original()),
  toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn() },
}));
const loginCall = vi.mocked(login);

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/login',
        element: (
          <UiProvider>
            <RouterNav>
              <LoginForm />
            </RouterNav>
          </UiProvider>
        ),
      },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: '登录' }));

/** The login page at `path` with an account and a password typed, not yet submitted. */
function typedAt(path: string, account: string, password: string) {
  const router = renderAt(path);
  fill('账号', account);
  fill('密码', password);
  return router;
}

beforeEach(() => {
  loginCall.mockReset();
  vi.mocked(toast.warning).mockReset();
  vi.mocked(toast.error).mockReset();
  useSession.getState().reset();
});

describe('login form', () => {
  it("shows core's rule messages and sends nothing while fields are empty", async () => {
    renderAt('/login');
    submit();
    expect(await screen.findByText('请输入用户名、邮箱或手机号')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(loginCall).not.toHaveBeenCalled();
  });

  it('signs in with filter, password and remeber, stores the session and follows ?redirect', async () => {
    loginCall.mockResolvedValue({
      code: 200,
      message: '',
      data: { auth_token: 'tok-1', user_name: 'admin', permission: 268435455, user_id: 1 },
    });
    const router = typedAt('/login?redirect=%2Fgateways%3Fpage%3D3', '  admin ', 'secret-password');
    fireEvent.click(screen.getByLabelText('记住我'));
    submit();

    await waitFor(() => expect(router.state.location.pathname).toBe('/gateways'));
    expect(router.state.location.search).toBe('?page=3');
    expect(loginCall).toHaveBeenCalledWith({ filter: 'admin', password: 'secret-password', remeber: true });
    expect(localStorage.getItem('token')).toBe('tok-1');
    expect(localStorage.getItem('user_name')).toBe('admin');
    expect(useSession.getState()).toMatchObject({ isLogin: true, userName: 'admin', userID: 1 });
  });

  it('goes to OdHomePagePath when there is no redirect', async () => {
    localStorage.setItem('OdHomePagePath', '/smart-toilet');
    loginCall.mockResolvedValue({
      code: 200,
      message: '',
      data: { auth_token: 't', user_name: 'u', permission: 1, user_id: 2 },
    });
    const router = typedAt('/login', 'u', 'pw');
    submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/smart-toilet'));
  });

  it("shows the server's message when the credentials are refused", async () => {
    loginCall.mockResolvedValue({ code: 400, message: '账号或密码错误', data: null as never });
    const router = typedAt('/login', 'admin', 'wrong');
    submit();
    await waitFor(() => expect(toast.warning).toHaveBeenCalledWith('账号或密码错误'));
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('shows and hides the password on request', () => {
    typedAt('/login', 'admin', 'secret-password');
    const box = screen.getByLabelText('密码');
    expect(box.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: '显示密码' }));
    expect(box.getAttribute('type')).toBe('text');
    expect((box as HTMLInputElement).value).toBe('secret-password');
    fireEvent.click(screen.getByRole('button', { name: '隐藏密码' }));
    expect(box.getAttribute('type')).toBe('password');
  });

  it('reports a network failure as an error', async () => {
    loginCall.mockRejectedValue(new ApiError('network', 'Network Error'));
    typedAt('/login', 'admin', 'pw');
    submit();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('网络错误'));
  });
});
