import { CODE, loginBody, type LoginData } from '@se/core';
import { useState } from 'react';
import type { z } from 'zod';
import { login } from '../../api/auth.ts';
import { errorText } from '../../components/error-text.ts';
import { useZodForm } from '../../components/zod-form.ts';
import { PageLink, usePageNav } from '../../navigation/page-nav.tsx';
import { completeLogin, loginTarget } from '../../session/session.ts';
import { CheckField, InputField, SubmitButton } from './Field.tsx';
import { LockIcon, UserIcon } from './icons.tsx';

/** After a sign-in: go to ?redirect, else OdHomePagePath, else / (SPEC §2). */
export function useLeaveLogin(): () => void {
  const { search, go } = usePageNav();
  return () => go(loginTarget(search), { replace: true });
}

/** SPEC §4: a sign-in counts when the body code is 200 and the data carries a token. */
export const isSignedIn = (res: {
  code: number;
  data: LoginData | null;
}): res is { code: 200; data: LoginData } =>
  res.code === CODE.ok && typeof res.data?.auth_token === 'string' && res.data.auth_token !== '';

/**
 * A toast (SPEC §8). Its antd code is loaded on demand: the sign-in page renders without
 * antd. Should that download fail (the network is gone), the form says it in place.
 */
const notify = (kind: 'warning' | 'error', text: string): Promise<void> =>
  import('../../components/toast.ts').then(({ toast }) => void toast[kind](text));

interface Props {
  /** Runs after the session is stored and before leaving the page (mini-program binding). */
  afterLogin?: () => Promise<void>;
}

export function LoginForm({ afterLogin }: Props) {
  // Registration hands over the new account name.
  const preset = (usePageNav().state as { filter?: unknown } | null)?.filter;
  const form = useZodForm(loginBody, {
    filter: typeof preset === 'string' ? preset : '',
    password: '',
    remeber: false,
  });
  const [submitting, setSubmitting] = useState(false);
  const [problem, setProblem] = useState('');
  const leave = useLeaveLogin();

  const tell = (kind: 'warning' | 'error', text: string) =>
    notify(kind, text).then(
      () => setProblem(''),
      () => setProblem(text),
    );

  const submit = async (body: z.output<typeof loginBody>) => {
    setSubmitting(true);
    try {
      const res = await login(body);
      if (isSignedIn(res)) {
        completeLogin(res.data);
        await afterLogin?.();
        leave();
      } else {
        // Wrong credentials (400), locked or rate limited (429): the server says which.
        void tell('warning', res.message || '登录失败');
      }
    } catch (error) {
      void tell('error', errorText(error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form name="login" noValidate onSubmit={form.onSubmit((body) => void submit(body))}>
      <InputField
        form={form}
        name="filter"
        label="账号"
        icon={<UserIcon />}
        placeholder="用户名 / 邮箱 / 手机号"
        autoComplete="username"
      />
      <InputField
        form={form}
        name="password"
        label="密码"
        icon={<LockIcon />}
        password
        placeholder="请输入密码"
        autoComplete="current-password"
      />
      <div className="auth-row" style={{ marginBottom: 16 }}>
        <CheckField bound={form.checkbox('remeber')}>记住我</CheckField>
        <PageLink to="/find_password">找回密码</PageLink>
      </div>
      {problem && (
        <p className="auth-problem" role="alert">
          {problem}
        </p>
      )}
      <SubmitButton loading={submitting}>登录</SubmitButton>
      <div className="auth-row" style={{ marginBottom: 16 }}>
        <span className="auth-muted">
          还没有账号？<PageLink to="/register">注册</PageLink>
        </span>
        <span className="auth-muted auth-small">
          登录即表示同意<PageLink to="/agreement">《用户协议与隐私声明》</PageLink>
        </span>
      </div>
    </form>
  );
}
