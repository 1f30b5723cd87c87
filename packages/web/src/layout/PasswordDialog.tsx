import { LockOutlined } from '@ant-design/icons';
import { CODE, WRONG_OLD_PASSWORD, changePasswordBody } from '@se/core';
import { useId, useState } from 'react';
import type { z } from 'zod';
import { changePassword } from '../api/auth.ts';
import { FormModal, type FormModalFrameProps } from '../components/FormModal.tsx';
import { runCall } from '../components/run-call.ts';
import { toast } from '../components/toast.ts';
import { useZodForm } from '../components/zod-form.ts';
import { NewPasswordFields } from '../pages/auth/AccountFields.tsx';
import { InputField } from '../pages/auth/Field.tsx';
import '../pages/auth/auth.css';
import { forgetSession } from '../session/actions.ts';
import { useSession } from '../session/store.ts';

/**
 * 修改密码 from the user menu. A changed password ends every session of the account, this
 * one included, so success forgets the session here and `onChanged` leaves for /login.
 */
export function PasswordDialog({
  open,
  onCancel,
  onChanged,
}: Pick<FormModalFrameProps, 'open' | 'onCancel'> & { onChanged: () => void }) {
  const formId = useId();
  const [saving, setSaving] = useState(false);
  return (
    <FormModal
      open={open}
      title="修改密码"
      width={440}
      saving={saving}
      onSave={() => (document.getElementById(formId) as HTMLFormElement | null)?.requestSubmit()}
      onCancel={onCancel}
      onClosed={() => setSaving(false)}
    >
      <ChangePasswordForm id={formId} onSaving={setSaving} onChanged={onChanged} />
    </FormModal>
  );
}

/** The fields; rebuilt empty each time the dialog opens (FormModal drops its contents). */
function ChangePasswordForm({
  id,
  onSaving,
  onChanged,
}: {
  id: string;
  onSaving: (saving: boolean) => void;
  onChanged: () => void;
}) {
  const userName = useSession((s) => s.userName);
  const form = useZodForm(
    changePasswordBody,
    { old_password: '', password1: '', password2: '' },
    { password1: ['password2'] },
  );

  const submit = (body: z.output<typeof changePasswordBody>) =>
    runCall(() => changePassword(body), {
      busy: onSaving,
      onOk: () => {
        forgetSession();
        toast.success('密码已修改，请重新登录');
        onChanged();
      },
      onRefused: (code, message) => {
        if (code !== CODE.badRequest) return false;
        // The server's checks the schema cannot make: the old password, the password list.
        const field = message === WRONG_OLD_PASSWORD ? 'old_password' : 'password1';
        form.setErrors((e) => ({ ...e, [field]: message }));
        document.getElementById(form.idOf(field))?.focus();
        return true;
      },
    });

  return (
    <form id={id} name="change-password" noValidate onSubmit={form.onSubmit((body) => void submit(body))}>
      {/* For password managers: which account's password this is. */}
      <input type="text" name="username" autoComplete="username" value={userName} readOnly hidden />
      <InputField
        form={form}
        name="old_password"
        label="原密码"
        icon={<LockOutlined />}
        password
        placeholder="请输入当前密码"
        autoComplete="current-password"
      />
      <NewPasswordFields form={form} prefix="新" />
      {/* Enter in a field submits, as the 保存 button does. */}
      <button type="submit" hidden />
    </form>
  );
}
