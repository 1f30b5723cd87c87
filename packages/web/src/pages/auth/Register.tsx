import { LockOutlined, MailOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { CODE, signupBody } from '@se/core';
import { Button, Checkbox, Input, Space } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { signup } from '../../api/auth.ts';
import { errorText } from '../../components/error-text.ts';
import { toast } from '../../components/toast.ts';
import { useZodForm } from '../../components/zod-form.ts';
import { AuthCard } from './AuthCard.tsx';
import { CaptchaButton } from './CaptchaButton.tsx';
import { Field } from './Field.tsx';

const AGREEMENT_REQUIRED = '请阅读并同意用户协议与隐私声明';

export default function Register() {
  const form = useZodForm(
    signupBody,
    { email: '', email_captcha: '', user_name: '', password1: '', password2: '', agreed: false },
    { password1: ['password2'] },
  );
  const [submitting, setSubmitting] = useState(false);
  const navigate = useNavigate();

  const submit = async (body: z.output<typeof signupBody>) => {
    if (!form.values.agreed) return form.setErrors((e) => ({ ...e, agreed: AGREEMENT_REQUIRED }));
    setSubmitting(true);
    try {
      const res = await signup(body);
      if (res.code === CODE.ok) {
        toast.success('注册成功，请登录');
        await navigate('/login', { replace: true, state: { filter: body.user_name } });
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
    <AuthCard title="用户注册">
      <form name="register" noValidate onSubmit={form.onSubmit((body) => void submit(body))}>
        <Field label="邮箱" id={form.idOf('email')} error={form.errors.email}>
          <Input
            {...form.input('email')}
            size="large"
            prefix={<MailOutlined />}
            placeholder="请输入邮箱"
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
              purpose="signup"
              onInvalidEmail={(message) => form.setErrors((e) => ({ ...e, email: message }))}
            />
          </Space.Compact>
        </Field>
        <Field label="用户名" id={form.idOf('user_name')} error={form.errors.user_name}>
          <Input
            {...form.input('user_name')}
            size="large"
            prefix={<UserOutlined />}
            placeholder="2-32位文字、数字、下划线"
            autoComplete="username"
          />
        </Field>
        <Field label="密码" id={form.idOf('password1')} error={form.errors.password1}>
          <Input.Password
            {...form.input('password1')}
            size="large"
            prefix={<LockOutlined />}
            placeholder="至少8个字符"
            autoComplete="new-password"
          />
        </Field>
        <Field label="确认密码" id={form.idOf('password2')} error={form.errors.password2}>
          <Input.Password
            {...form.input('password2')}
            size="large"
            prefix={<LockOutlined />}
            placeholder="请再次输入密码"
            autoComplete="new-password"
          />
        </Field>
        <div className="auth-field">
          <Checkbox
            {...form.checkbox('agreed')}
            onChange={(e) => {
              form.set('agreed', e.target.checked);
              form.setErrors((errors) => ({
                ...errors,
                agreed: e.target.checked ? undefined : AGREEMENT_REQUIRED,
              }));
            }}
          >
            我已阅读并同意<Link to="/agreement">《用户协议与隐私声明》</Link>
          </Checkbox>
          <div className="auth-field__error" role={form.errors.agreed ? 'alert' : undefined}>
            {form.errors.agreed}
          </div>
        </div>
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={submitting}
          style={{ marginBottom: 16 }}
        >
          注册
        </Button>
        <p className="auth-muted auth-center">
          已有账号？<Link to="/login">去登录</Link>
        </p>
      </form>
    </AuthCard>
  );
}
