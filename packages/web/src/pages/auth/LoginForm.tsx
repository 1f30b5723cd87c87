import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { CODE, loginBody, type LoginData } from '@se/core';
import { Checkbox } from 'antd';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { z } from 'zod';
import { login } from '../../api/auth.ts';
import { errorText } from '../../components/error-text.ts';
import { toast } from '../../components/toast.ts';
import { useZodForm } from '../../components/zod-form.ts';
import { completeLogin, loginTarget } from '../../session/session.ts';
import { InputField, SubmitButton } from './Field.tsx';

/** After a sign-in: go to ?redirect, else OdHomePagePath, else / (SPEC §2). */
export function useLeaveLogin(): () => void {
  const navigate = useNavigate();
  const { search } = useLocation();
  return () => {
    // SPEC §8: router errors are swallowed.
    Promise.resolve(navigate(loginTarget(search), { replace: true })).catch(() => {});
  };
}

/** SPEC §4: a sign-in counts when the body code is 200 and the data carries a token. */
export const isSignedIn = (res: {
  code: number;
  data: LoginData | null;
}): res is { code: 200; data: LoginData } =>
  res.code === CODE.ok && typeof res.data?.auth_token === 'string' && res.data.auth_token !== '';

interface Props {
  /** Runs after the session is stored and before leaving the page (mini-program binding). */
  afterLogin?: () => Promise<void>;
}

export function LoginForm({ afterLogin }: Props) {
  const location = useLocation();
  // Registration hands over the new account name.
  const preset = (location.state as { filter?: unknown } | null)?.filter;
  const form = useZodForm(loginBody, {
    filter: typeof preset === 'string' ? preset : '',
    password: '',
    remeber: false,
  });
  const [submitting, setSubmitting] = useState(false);
  const leave = useLeaveLogin();

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
        toast.warning(res.message || '登录失败');
      }
    } catch (error) {
      toast.error(errorText(error));
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
        icon={<UserOutlined />}
        placeholder="用户名 / 邮箱 / 手机号"
        autoComplete="username"
      />
      <InputField
        form={form}
        name="password"
        label="密码"
        icon={<LockOutlined />}
        password
        placeholder="请输入密码"
        autoComplete="current-password"
      />
      <div className="auth-row" style={{ marginBottom: 16 }}>
        <Checkbox {...form.checkbox('remeber')}>记住我</Checkbox>
        <Link to="/find_password">找回密码</Link>
      </div>
      <SubmitButton loading={submitting}>登录</SubmitButton>
      <div className="auth-row" style={{ marginBottom: 16 }}>
        <span className="auth-muted">
          还没有账号？<Link to="/register">注册</Link>
        </span>
        <span className="auth-muted auth-small">
          登录即表示同意<Link to="/agreement">《用户协议与隐私声明》</Link>
        </span>
      </div>
    </form>
  );
}
