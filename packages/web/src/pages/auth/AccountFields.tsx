import { LockOutlined, MailOutlined, SafetyOutlined } from '@ant-design/icons';
import type { CaptchaPurpose } from '@se/core';
import { Input, Space } from 'antd';
import type { ChangeEvent } from 'react';
import { CaptchaButton } from './CaptchaButton.tsx';
import { Field, InputField } from './Field.tsx';

type Name = 'email' | 'email_captcha' | 'password1' | 'password2';

interface InputProps {
  id: string;
  name: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
}

/** The part of useZodForm's answer the new-password fields use (sign-up, recovery, change). */
interface PasswordForm {
  errors: Partial<Record<'password1' | 'password2', string>>;
  idOf(name: string): string;
  input(name: 'password1' | 'password2'): InputProps;
}

/** The part of useZodForm's answer these fields use, for forms that have all four fields. */
interface AccountForm extends PasswordForm {
  values: { email: string };
  errors: Partial<Record<Name, string>>;
  input(name: Name): InputProps;
  setErrors(update: (errors: Partial<Record<string, string>>) => Partial<Record<string, string>>): void;
}

/** 邮箱 and 邮箱验证码 with its 60 s send button: the head of sign-up and password recovery. */
export function EmailCaptchaFields({
  form,
  purpose,
  label = '邮箱',
  placeholder = '请输入邮箱',
}: {
  form: AccountForm;
  purpose: CaptchaPurpose;
  label?: string;
  placeholder?: string;
}) {
  return (
    <>
      <InputField
        form={form}
        name="email"
        label={label}
        icon={<MailOutlined />}
        placeholder={placeholder}
        autoComplete="email"
        inputMode="email"
      />
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
            purpose={purpose}
            onInvalidEmail={(message) => form.setErrors((e) => ({ ...e, email: message }))}
          />
        </Space.Compact>
      </Field>
    </>
  );
}

/** A new password typed twice; `prefix` names it (“新” on recovery and change). */
export function NewPasswordFields({ form, prefix = '' }: { form: PasswordForm; prefix?: string }) {
  return (
    <>
      <InputField
        form={form}
        name="password1"
        label={`${prefix}密码`}
        icon={<LockOutlined />}
        password
        placeholder="至少8个字符，勿用常见密码或用户名"
        autoComplete="new-password"
      />
      <InputField
        form={form}
        name="password2"
        label={`确认${prefix}密码`}
        icon={<LockOutlined />}
        password
        placeholder={`请再次输入${prefix}密码`}
        autoComplete="new-password"
      />
    </>
  );
}
