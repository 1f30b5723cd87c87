import { LockOutlined, MailOutlined, SafetyOutlined } from '@ant-design/icons';
import { CODE, findPasswordBody } from '@se/core';
import { Button, Input, Space } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { findPassword } from '../../api/auth.ts';
import { errorText } from '../../components/error-text.ts';
import { toast } from '../../components/toast.ts';
import { useZodForm } from '../../components/zod-form.ts';
import { AuthCard } from './AuthCard.tsx';
import { CaptchaButton } from './CaptchaButton.tsx';
import { Field } from './Field.tsx';

export default function FindPassword() {
  const form = useZodForm(
    findPasswordBody,
    { email: '', email_captcha: '', password1: '', password2: '' },
    { password1: ['password2'] },
  );
  const [submitting, setSubmitting] = useState(false);
  const navigate = useNavigate();

  const submit = async (body: z.output<typeof findPasswordBody>) => {
    setSubmitting(true);
    try {
      const res = await findPassword(body);
      if (res.code === CODE.ok) {
        toast.success('密码已重置，请使用新密码登录');
        await navigate('/login', { replace: true });
      } else {
        toast.warning(res.message);
      }
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthCard title="找回密码">
      <form name="find-password" noValidate onSubmit={form.onSubmit((body) => void submit(body))}>
        <Field label="注册邮箱" id={form.idOf('email')} error={form.errors.email}>
          <Input
            {...form.input('email')}
            size="large"
            prefix={<MailOutlined />}
            placeholder="请输入注册时使用的邮箱"
            autoComplete="email"
            inputMode="email"
          />
        </Field>
        <Field label="邮箱验证码" id={form.idOf('email_captcha')} error={form.errors.email_captcha}>
          <Space.Compact style={{ width: '100%' }}>
            <Input
              {...form.input('email_captcha')}
              size="large"
              prefix={<SafetyOutlined />}
              placeholder="6位数字验证码"
              inputMode="numeric"
              maxLength={6}
              autoComplete="one-time-code"
            />
            <CaptchaButton
              email={form.values.email}
              purpose="find-password"
              onInvalidEmail={(message) => form.setErrors((e) => ({ ...e, email: message }))}
            />
          </Space.Compact>
        </Field>
        <Field label="新密码" id={form.idOf('password1')} error={form.errors.password1}>
          <Input.Password
            {...form.input('password1')}
            size="large"
            prefix={<LockOutlined />}
            placeholder="至少8个字符"
            autoComplete="new-password"
          />
        </Field>
        <Field label="确认新密码" id={form.idOf('password2')} error={form.errors.password2}>
          <Input.Password
            {...form.input('password2')}
            size="large"
            prefix={<LockOutlined />}
            placeholder="请再次输入新密码"
            autoComplete="new-password"
          />
        </Field>
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={submitting}
          style={{ marginBottom: 16 }}
        >
          重置密码
        </Button>
        <p className="auth-muted auth-center">
          想起密码了？<Link to="/login">返回登录</Link>
        </p>
      </form>
    </AuthCard>
  );
}
