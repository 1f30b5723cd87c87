import { findPasswordBody } from '@se/core';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { findPassword } from '../../api/auth.ts';
import { useCall } from '../../components/run-call.ts';
import { useZodForm } from '../../components/zod-form.ts';
import { AuthCard } from './AuthCard.tsx';
import { EmailCaptchaFields, NewPasswordFields } from './AccountFields.tsx';
import { SubmitButton } from './Field.tsx';

export default function FindPassword() {
  const form = useZodForm(
    findPasswordBody,
    { email: '', email_captcha: '', password1: '', password2: '' },
    { password1: ['password2'] },
  );
  const { busy: submitting, run } = useCall();
  const navigate = useNavigate();

  const submit = (body: z.output<typeof findPasswordBody>) =>
    run(() => findPassword(body), {
      success: '密码已重置，请使用新密码登录',
      onOk: () => navigate('/login', { replace: true }),
    });

  return (
    <AuthCard title="找回密码">
      <form name="find-password" noValidate onSubmit={form.onSubmit((body) => void submit(body))}>
        <EmailCaptchaFields
          form={form}
          purpose="find-password"
          label="注册邮箱"
          placeholder="请输入注册时使用的邮箱"
        />
        <NewPasswordFields form={form} prefix="新" />
        <SubmitButton loading={submitting}>重置密码</SubmitButton>
        <p className="auth-muted auth-center">
          想起密码了？<Link to="/login">返回登录</Link>
        </p>
      </form>
    </AuthCard>
  );
}
