import { PERMISSION, addUserBody, has, updateUserBody, type UserRow } from '@se/core';
import { useState } from 'react';
import { addUser, updateUser, type UpdateUserRequest } from '../../api/users.ts';
import { phoneField } from '../../components/contact-fields.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import type { FormField } from '../../components/form-fields.tsx';
import { PendingEmail } from '../../components/PendingEmail.tsx';
import { useSession } from '../../session/store.ts';
import { RolePicker, ServicePicker } from './RolePicker.tsx';
import { canEditServices, permissionsToSave, targetIsBackendManager } from './role-picker.ts';

interface UserForm {
  user_name: string;
  password: string;
  email: string;
  phone_num: string;
  permissions: number;
  services: number;
  /**
   * The organisation: of a new account (ssSuperSaled and develop; others inherit theirs), or
   * where an edited account moves (the server checks the caller manages both).
   */
  org_id?: number;
}

type Contact = Pick<UserForm, 'user_name' | 'email' | 'phone_num'>;

export type UserDialogTarget = { mode: 'add' } | { mode: 'edit'; user: UserRow };

/**
 * 新增用户 / 编辑用户. Mounted per use (the list keeps the target), so every opening starts
 * from the row's current values; `onClosed` runs after the closing animation.
 */
export function UserFormDialog({
  target,
  onSaved,
  onClosed,
}: DialogProps<{
  target: UserDialogTarget;
}>) {
  const callerMask = useSession((s) => s.permission);
  const callerBm = useSession((s) => s.backendManager);
  const callerId = useSession((s) => s.userID);
  const [confirmed, setConfirmed] = useState(false);

  const user = target.mode === 'edit' ? target.user : null;
  const self = user !== null && user.id === callerId;
  const servicesEditable = canEditServices(callerMask, self);
  // Only they name an organisation; everyone else's new accounts join the creator's (users.org_id).
  const namesOrg = has(callerMask, PERMISSION.develop) || has(callerMask, PERMISSION.ssSuperSaled);
  // Moving an account: offered for someone else's account in an organisation, or to those who name one.
  const movesOrg = user !== null && !self && (namesOrg || user.org_id !== null);

  const initialValues: UserForm = {
    user_name: user?.user_name ?? '',
    password: '',
    email: user?.email ?? '',
    phone_num: user?.phone_num ?? '',
    permissions: user?.permissions ?? 0,
    services: user?.services ?? 0,
    org_id: user?.org_id ?? undefined,
  };

  // Only what may change is sent: roles and services that did not change are left out, so
  // an unrelated edit never trips the role rules, and unassignable bits keep their value.
  const editBody = (row: UserRow, values: UserForm, base: Contact): UpdateUserRequest => {
    const body: UpdateUserRequest = { id: row.id, ...base };
    if (!self) {
      const permissions = permissionsToSave(callerMask, row.permissions, values.permissions, callerBm);
      if (permissions !== row.permissions) body.permissions = permissions;
    }
    if (servicesEditable && values.services !== row.services) body.services = values.services;
    // 0 takes the account out of its organisation.
    if (movesOrg && (values.org_id ?? 0) !== (row.org_id ?? 0)) body.org_id = values.org_id ?? 0;
    return body;
  };

  const submit = (values: UserForm) => {
    const base: Contact = {
      user_name: values.user_name.trim(),
      email: (values.email ?? '').trim(),
      phone_num: values.phone_num ?? '',
    };
    return user
      ? updateUser(editBody(user, values, base))
      : addUser({
          ...base,
          password: values.password,
          permissions: values.permissions,
          org_id: namesOrg ? values.org_id || undefined : undefined,
        });
  };

  const success = (data: UserRow | { id: number }) => {
    if (!user) return '新增成功';
    const waiting = 'pending_email' in data ? data.pending_email : '';
    return waiting && waiting !== user.pending_email
      ? `已保存；验证码已发到 ${waiting}，账号本人确认后邮箱才变更`
      : '修改成功';
  };

  const fields: FormField<UserForm>[] = [
    {
      name: 'user_name',
      label: '用户名',
      required: true,
      maxLength: 32,
      placeholder: '请输入用户名',
      props: { autoComplete: 'off' },
    },
    {
      name: 'password',
      label: '密码',
      kind: 'password',
      required: true,
      hidden: !!user,
      maxLength: 64,
      placeholder: '8–64 个字符',
      props: { autoComplete: 'new-password' },
    },
    {
      name: 'email',
      label: '邮箱',
      maxLength: 254,
      placeholder: '选填',
      props: { autoComplete: 'off', inputMode: 'email' },
      extra: user?.pending_email ? (
        <PendingEmail
          pending={user.pending_email}
          owner={self}
          onConfirmed={() => {
            onSaved();
            setConfirmed(true);
          }}
        />
      ) : user ? (
        '修改邮箱需账号本人输入发到新邮箱的验证码后才生效'
      ) : undefined,
    },
    phoneField('选填', 'off'),
    {
      name: 'permissions',
      label: '角色',
      required: !user,
      extra: self ? '不能修改自己的角色和服务' : '只能分配您有权分配的角色；勾选一个角色会同时勾选其下级角色',
      rules: user
        ? []
        : [
            {
              validator: async (_rule, value: number | undefined) => {
                if (!value) throw new Error('请至少选择一个角色');
              },
            },
          ],
      render: () => (
        <RolePicker
          callerMask={callerMask}
          callerBm={callerBm}
          targetBm={targetIsBackendManager(callerMask, user)}
          self={self}
        />
      ),
    },
    {
      name: 'org_id',
      label: '所属组织ID',
      kind: 'number',
      hidden: user ? !movesOrg : !namesOrg,
      placeholder: user ? '不属于任何组织' : '选填',
      extra: user
        ? '填写另一个组织的ID可调动该账号（其下属的同组织账号随之调动），清空则移出组织；须您同时管理原组织和新组织'
        : '为某个组织新增园区管理员时填写该组织的ID；不填则与您同属一个组织',
      props: { min: 1, precision: 0 },
      rules: [],
    },
    {
      name: 'services',
      label: '服务',
      hidden: !user,
      rules: [],
      render: () => <ServicePicker disabled={!servicesEditable} />,
    },
  ];

  return (
    <FormModal
      title={user ? `编辑用户 ${user.user_name}` : '新增用户'}
      width={640}
      name={user ? 'edit-user' : 'add-user'}
      fields={fields}
      schema={user ? updateUserBody : addUserBody}
      initialValues={initialValues}
      submit={submit}
      success={success}
      onSaved={onSaved}
      // A confirmed e-mail change is a save too: the list has reloaded, the dialog closes.
      open={confirmed ? false : undefined}
      onClosed={onClosed}
    />
  );
}
