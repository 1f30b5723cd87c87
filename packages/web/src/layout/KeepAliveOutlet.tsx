import { canAccess } from '@se/core';
import { Result } from 'antd';
import { Activity, useState } from 'react';
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
    return <Result status="403" title="无权访问" subTitle="抱歉，您的账号没有访问此页面的权限。" />;
  }
  return <PageFrame route={route} />;
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
