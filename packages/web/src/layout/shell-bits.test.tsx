import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { defineScreen } from '../navigation/screen.ts';
import type { AppRoute } from '../routes.tsx';
import { loginTarget } from '../session/session.ts';
import { useSession } from '../session/store.ts';
import { HeaderBar } from './HeaderBar.tsx';
import { KeepAliveOutlet } from './KeepAliveOutlet.tsx';

vi.mock(import('../live/AlarmBell.tsx'), () => ({ AlarmBell: () => <></> }));
vi.mock(import('../pages/messages/MessageBadge.tsx'), () => ({ MessageBadge: () => <></> }));

const usersRoute: AppRoute = {
  path: '/users',
  name: 'Users',
  title: '用户管理',
  access: 'auth',
  keepAlive: false,
  area: 'system',
  permission: 4,
  screen: defineScreen('Users', () => Promise.resolve({ default: () => <p>用户列表</p> })),
};

function at(paths: string[], element: React.ReactNode) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <p>首页内容</p> },
      { path: '/comment', element: <p>评价页</p> },
      { path: '*', element },
    ],
    { initialEntries: paths },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('无权访问', () => {
  it('offers the page before and the home page', async () => {
    useSession.getState().signIn({ userName: '访客', permission: 1, userID: 5 });
    const router = at(['/comment'], <KeepAliveOutlet current={usersRoute} />);
    await router.navigate('/users');
    expect(await screen.findByText('无权访问')).toBeTruthy();
    expect(screen.queryByText('用户列表')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '返回上一页' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/comment'));
    await router.navigate('/users');
    fireEvent.click(await screen.findByRole('button', { name: '返回首页' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('设为首页', () => {
  it('makes the page shown, with its search, the one opened after signing in', async () => {
    useSession.getState().signIn({ userName: '张三', permission: 6, userID: 5 });
    const noop = () => {};
    const header = (
      <HeaderBar
        title="除臭机"
        mobile={false}
        collapsed={false}
        onToggleMenu={noop}
        onProfile={noop}
        onPassword={noop}
        onLogout={noop}
      />
    );
    at(['/equipments?keywords=西湖'], header);
    expect(loginTarget('')).toBe('/');
    fireEvent.click(await screen.findByRole('button', { name: '设为首页' }));
    expect(localStorage.getItem('OdHomePagePath')).toBe('/equipments?keywords=西湖');
    expect(loginTarget('')).toBe('/equipments?keywords=西湖');
    expect(screen.getByRole('button', { name: '当前页面是首页' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: '当前用户：张三' })).toBeTruthy();
  });
});
