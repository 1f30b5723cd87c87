import { loginWithOpenTokenBody } from '@se/core';
import { Alert, Spin } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { bindOpenToken, loginWithOpenToken } from '../../api/auth.ts';
import { toast } from '../../components/toast.ts';
import { completeLogin } from '../../session/session.ts';
import { AuthCard } from './AuthCard.tsx';
import { isSignedIn, LoginForm, useLeaveLogin } from './LoginForm.tsx';

/** The WeChat JSSDK's bridge, present when the mini-program's web-view loaded it. */
interface MiniProgramBridge {
  postMessage?: (message: { data: unknown }) => void;
}

/**
 * Entry from the WeChat mini program's web-view: ?open_token=&app_id=. A known token signs
 * in at once; otherwise the user signs in with the normal form, the server issues a new
 * token for that account, and the page hands it to the mini-program (JSSDK postMessage) to
 * keep for the next visit. docs/api.md "Mini-program sign-in" has the whole flow.
 */
export default function MiniProgramLogin() {
  const [params] = useSearchParams();
  const appId = params.get('app_id') ?? '';
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
    if (!appId) return;
    try {
      const res = await bindOpenToken({ app_id: appId });
      if (res.code !== 200) return toast.warning(res.message);
      const wx = (window as { wx?: { miniProgram?: MiniProgramBridge } }).wx;
      wx?.miniProgram?.postMessage?.({ data: { open_token: res.data.open_token, app_id: appId } });
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
            type={appId ? 'info' : 'warning'}
            showIcon
            style={{ marginBottom: 16 }}
            title={
              appId
                ? '首次使用请登录账号，登录后将与小程序绑定，下次自动登录。'
                : '缺少小程序参数，请使用账号密码登录。'
            }
          />
          <LoginForm afterLogin={appId ? bind : undefined} />
        </>
      )}
    </AuthCard>
  );
}
