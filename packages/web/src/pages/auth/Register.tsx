import { UserOutlined } from '@ant-design/icons';
import { signupBody } from '@se/core';
import { Checkbox } from 'antd';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { signup } from '../../api/auth.ts';
import { useCall } from '../../components/run-call.ts';
import { useZodForm } from '../../components/zod-form.ts';
import { AuthCard } from './AuthCard.tsx';
import { EmailCaptchaFields, NewPasswordFields } from './AccountFields.tsx';
import { InputField, SubmitButton } from './Field.tsx';

const AGREEMENT_REQUIRED = '请阅读并同意用户协议与隐私声明';

export default function Register() {
  const form = useZodForm(
    signupBody,
    { email: '', email_captcha: '', user_name: '', password1: '', password2: '', agreed: false },
    { password1: ['password2'] },
  );
  const { busy: submitting, run } = useCall();
  const navigate = useNavigate();

  const submit = (body: z.output<typeof signupBody>) => {
    if (!form.values.agreed) return form.setErrors((e) => ({ ...e, agreed: AGREEMENT_REQUIRED }));
    return run(() => signup(body), {
      success: '注册成功，请登录',
      onOk: () => navigate('/login', { replace: true, state: { filter: body.user_name } }),
    });
  };

  return (
    <AuthCard title="用户注册">
      <form name="register" noValidate onSubmit={form.onSubmit((body) => void submit(body))}>
        <EmailCaptchaFields form={form} purpose="signup" />
        <InputField
          form={form}
          name="user_name"
          label="用户名"
          icon={<UserOutlined />}
          placeholder="2-32位文字、数字、下划线"
          autoComplete="username"
        />
        <NewPasswordFields form={form} />
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
        <SubmitButton loading={submitting}>注册</SubmitButton>
        <p className="auth-muted auth-center">
          已有账号？<Link to="/login">去登录</Link>
        </p>
      </form>
    </AuthCard>
  );
}
