import { canAccess } from '@se/core';
import { Button, Result } from 'antd';
import { Activity, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageFrame } from '../navigation/PageFrame.tsx';
import type { AppRoute } from '../routes.tsx';
import { useSession } from '../session/store.ts';

/** A protected page, or a 403 answer when the known permission does not allow the route. */
function ShellPage({ route }: { route: AppRoute }) {
  const isLogin = useSession((s) => s.isLogin);
  const permission = useSession((s) => s.permission);
  // The menu hides what the permission lacks; a typed-in URL gets an answer here. Until
  // the permission is known (its check failed) the server is left to decide.
  if (isLogin && !canAccess(permission, route.permission)) {
    return <Forbidden />;
  }
  return <PageFrame route={route} />;
}

/** 无权访问, with the ways back: the page before, or the console's home. */
function Forbidden() {
  const navigate = useNavigate();
  // 'default' is the entry the app was opened at: there is no page before it in the app.
  const first = useLocation().key === 'default';
  return (
    <Result
      status="403"
      title="无权访问"
      subTitle="抱歉，您的账号没有访问此页面的权限。"
      extra={[
        <Button key="back" onClick={() => (first ? navigate('/') : navigate(-1))}>
          返回上一页
        </Button>,
        <Button key="home" type="primary" onClick={() => navigate('/')}>
          返回首页
        </Button>,
      ]}
    />
  );
}

/**
 * The route outlet with SPEC §2 keep-alive: a kept-alive route stays mounted, hidden by
 * <Activity>, once visited, so its filters, pages and scroll survive a visit elsewhere
 * (its effects pause while hidden). Other routes mount fresh each time.
 */
export function KeepAliveOutlet({ current }: { current: AppRoute | undefined }) {
  const [kept, setKept] = useState<readonly AppRoute[]>([]);
  if (current?.keepAlive && !kept.includes(current)) setKept([...kept, current]);

  return (
    <>
      {kept.map((route) => (
        <Activity key={route.name} name={route.name} mode={route === current ? 'visible' : 'hidden'}>
          <ShellPage route={route} />
        </Activity>
      ))}
      {current && !current.keepAlive && <ShellPage key={current.name} route={current} />}
    </>
  );
}
