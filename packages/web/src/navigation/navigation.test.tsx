import { act, render, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getPermission } from '../api/auth.ts';
import { ApiError } from '../api/client.ts';
import { sessionFromStorage, useSession } from '../session/store.ts';
import { popPreviousRoute, resetNavMemory, useNavMemory } from './nav-memory.ts';
import { buildRouteObjects } from './router.tsx';

vi.mock(import('../api/auth.ts'), async (original) => ({ ...(await original()), getPermission: vi.fn() }));
const permissionCall = vi.mocked(getPermission);

function start(path: string) {
  const router = createMemoryRouter(buildRouteObjects(), { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}
type Router = ReturnType<typeof start>;

// The first navigation of a file also loads the page modules (antd), which takes a while.
const settled = (router: Router) =>
  waitFor(
    () => {
      expect(router.state.initialized).toBe(true);
      expect(router.state.navigation.state).toBe('idle');
    },
    { timeout: 10_000 },
  );

/** Navigates and waits until the guard has let the navigation through (or redirected it). */
async function visit(router: Router, path: string, state?: unknown) {
  await act(() => router.navigate(path, { state }));
  await settled(router);
}

/** Waits for the route the app remembers last (it is written after the navigation). */
const lastRouteIs = (expected: ReturnType<typeof useNavMemory.getState>['lastRoute']) =>
  waitFor(() => expect(useNavMemory.getState().lastRoute).toEqual(expected));

/** get-permission answers with this permission and user id (not a backend manager). */
const grants = (permission: number, id: number) =>
  permissionCall.mockResolvedValue({
    code: 200,
    message: '',
    data: { permission, id, backend_manager: false },
  });

/** The app started at `path`, once the guard has let it in (or redirected it). */
async function opened(path: string) {
  const router = start(path);
  await settled(router);
  return router;
}

const signInStorage = () => {
  localStorage.setItem('token', 'tok-1');
  localStorage.setItem('user_name', '张三');
};

beforeEach(() => {
  permissionCall.mockReset();
  useSession.getState().reset();
  resetNavMemory();
});

describe('navigation guard', () => {
  it('sends a signed-out user to /login with the intended full path as redirect', async () => {
    const router = await opened('/users?tab=2&q=东门');
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(
      `/users?tab=2&q=${encodeURIComponent('东门')}`,
    );
    expect(permissionCall).not.toHaveBeenCalled();
    expect(document.title).toBe('用户登录 - 智慧环境管理系统');
  });

  it('refreshes name, permission and id from get-permission for a stored session, then enters', async () => {
    signInStorage();
    grants(2, 7);
    const router = await opened('/users');
    expect(router.state.location.pathname).toBe('/users');
    expect(useSession.getState()).toMatchObject({
      userName: '张三',
      permission: 2,
      isLogin: true,
      userID: 7,
    });
    expect(document.title).toBe('用户管理 - 智慧环境管理系统');
  });

  it('proceeds without updating the session when the permission check fails', async () => {
    signInStorage();
    permissionCall.mockRejectedValue(new ApiError('network', 'Network Error'));
    const router = await opened('/gateways');
    expect(router.state.location.pathname).toBe('/gateways');
    expect(useSession.getState()).toMatchObject({ isLogin: false, permission: 0 });
  });

  it('goes to /login when the permission check says the session has ended', async () => {
    signInStorage();
    permissionCall.mockResolvedValue({ code: 4002, message: '账号已在别处登录', data: null as never });
    const router = await opened('/gateways');
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/gateways');
  });

  it('lets a session flagged in the store through even without stored user name', async () => {
    useSession.getState().signIn({ userName: '李四', permission: 1, userID: 3 });
    permissionCall.mockResolvedValue({ code: 500, message: '服务器错误', data: null as never });
    const router = await opened('/comment');
    expect(router.state.location.pathname).toBe('/comment');
  });

  it('paints a signed-in page without waiting for get-permission, then applies its answer', async () => {
    useSession.getState().signIn({ userName: '李四', permission: 2, userID: 3 });
    let answer: (v: Awaited<ReturnType<typeof getPermission>>) => void = () => {};
    permissionCall.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const router = await opened('/comment');
    // The check is still running, and the page is already in.
    expect(router.state.location.pathname).toBe('/comment');
    expect(permissionCall).toHaveBeenCalledTimes(1);
    await act(async () =>
      answer({ code: 200, message: '', data: { permission: 1, id: 3, backend_manager: false } }),
    );
    expect(useSession.getState()).toMatchObject({ permission: 1, userID: 3, isLogin: true });
  });

  it('a reload starts from the permission the last check answered, never as 匿名', () => {
    signInStorage();
    expect(sessionFromStorage()).toMatchObject({ isLogin: false, userName: '匿名' });
    useSession.getState().signIn({ userName: '张三', permission: 6, userID: 9 });
    expect(sessionFromStorage()).toEqual({
      userName: '张三',
      permission: 6,
      userID: 9,
      backendManager: false,
      isLogin: true,
    });
    localStorage.removeItem('token'); // signed out elsewhere: the cache alone is not a session
    expect(sessionFromStorage().isLogin).toBe(false);
  });

  it('redirects / and unknown paths to /st-gateway', async () => {
    signInStorage();
    grants(1, 1);
    const router = await opened('/no/such/page');
    expect(router.state.location.pathname).toBe('/st-gateway');
    await visit(router, '/');
    expect(router.state.location.pathname).toBe('/st-gateway');
    expect(document.title).toBe('智慧网关 - 智慧环境管理系统');
  });

  it('leaves public pages open and titles them', async () => {
    const router = await opened('/register');
    expect(router.state.location.pathname).toBe('/register');
    expect(document.title).toBe('用户注册 - 智慧环境管理系统');
  });
});

describe('navigation history', () => {
  it('adds a route name only when it differs from the last one', async () => {
    const router = await opened('/login');
    // The first page is recorded once it has rendered; a user cannot navigate before that.
    await waitFor(() => expect(useNavMemory.getState().history).toEqual(['Login']));
    for (const path of ['/register', '/register?step=2', '/agreement', '/agreement', '/login']) {
      await visit(router, path);
    }
    await waitFor(() =>
      expect(useNavMemory.getState().history).toEqual(['Login', 'Register', 'Agreement', 'Login']),
    );
  });

  it('remembers name, query and params for every route but /login, keeping params a route lacks', async () => {
    const router = await opened('/register');
    await visit(router, '/agreement?from=register', { toilet_id: 12 });
    await lastRouteIs({ name: 'Agreement', query: { from: 'register' }, params: { toilet_id: 12 } });
    await visit(router, '/find_password?email=a%40b.cn');
    await lastRouteIs({ name: 'FindPassword', query: { email: 'a@b.cn' }, params: { toilet_id: 12 } });
    await visit(router, '/login?redirect=%2Fusers');
    expect(useNavMemory.getState().lastRoute.name).toBe('FindPassword');
  });

  it('goes back to the previous named route, or reports none so the caller uses /', () => {
    useNavMemory.setState({ history: ['Login', 'Users', 'Gateways'] });
    expect(popPreviousRoute()).toBe('Users');
    expect(useNavMemory.getState().history).toEqual(['Login', 'Users']);
    useNavMemory.setState({ history: ['Users'] });
    expect(popPreviousRoute()).toBeNull();
  });

  it('starts from the default route Toilets after a reset', () => {
    useNavMemory.setState({ history: ['Users'], lastRoute: { name: 'Users', query: {}, params: { a: 1 } } });
    resetNavMemory();
    expect(useNavMemory.getState()).toMatchObject({
      history: [],
      lastRoute: { name: 'Toilets', query: {}, params: {} },
    });
  });
});
