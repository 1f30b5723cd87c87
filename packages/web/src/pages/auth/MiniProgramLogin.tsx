import { loginWithOpenTokenBody } from '@se/core';
import { Alert, Spin } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { bindOpenToken, loginWithOpenToken } from '../../api/auth.ts';
import { toast } from '../../components/toast.ts';
import { completeLogin } from '../../session/session.ts';
import { AuthCard } from './AuthCard.tsx';
import { isSignedIn, LoginForm, useLeaveLogin } from './LoginForm.tsx';

/**
 * Entry from the WeChat mini program's web-view: ?open_token=&app_id=. A known identity
 * signs in at once; an unknown one signs in with the normal form, and the identity is
 * then bound to that account so the next visit skips the form.
 */
export default function MiniProgramLogin() {
  const [params] = useSearchParams();
  const ids = useMemo(() => {
    const parsed = loginWithOpenTokenBody.safeParse({
      open_token: params.get('open_token') ?? '',
      app_id: params.get('app_id') ?? '',
    });
    return parsed.success ? parsed.data : null;
  }, [params]);
  const [trying, setTrying] = useState(ids !== null);
  const leave = useLeaveLogin();
  const started = useRef(false);

  useEffect(() => {
    // Once per visit: StrictMode's second effect run must not sign in twice.
    if (!ids || started.current) return;
    started.current = true;
    loginWithOpenToken(ids)
      .then((res) => {
        if (!isSignedIn(res)) return setTrying(false);
        completeLogin(res.data);
        leave();
      })
      .catch(() => setTrying(false));
  }, [ids, leave]);

  const bind = async () => {
    if (!ids) return;
    try {
      const res = await bindOpenToken(ids);
      if (res.code !== 200) toast.warning(res.message);
    } catch {
      // Signed in all the same; the next visit offers the form again.
      toast.warning('小程序账号绑定失败，下次进入时需要重新登录');
    }
  };

  return (
    <AuthCard title="小程序登录">
      {trying ? (
        <Spin spinning description="正在登录，请稍候">
          <div style={{ height: 160 }} />
        </Spin>
      ) : (
        <>
          <Alert
            type={ids ? 'info' : 'warning'}
            showIcon
            style={{ marginBottom: 16 }}
            title={
              ids
                ? '首次使用请登录账号，登录后将与小程序绑定，下次自动登录。'
                : '缺少小程序参数，请使用账号密码登录。'
            }
          />
          <LoginForm afterLogin={ids ? bind : undefined} />
        </>
      )}
    </AuthCard>
  );
}
