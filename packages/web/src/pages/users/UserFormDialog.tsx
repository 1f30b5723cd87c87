import { addUserBody, updateUserBody, type UserRow } from '@se/core';
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { addUser, updateUser, type UpdateUserRequest } from '../../api/users.ts';
import { zodRule } from '../../components/form-rules.ts';
import { onlyDigits } from '../../layout/ProfileDialog.tsx';
import { useIsMobile } from '../../layout/viewport.ts';
import { useSession } from '../../session/store.ts';
import { attempt } from '../../components/feedback.ts';
import { PendingEmail } from '../../components/PendingEmail.tsx';
import { toast } from '../../components/toast.ts';
import { RolePicker, ServicePicker } from './RolePicker.tsx';
import { canEditServices, permissionsToSave, targetIsBackendManager } from './role-picker.ts';

interface UserForm {
  user_name: string;
  password: string;
  email: string;
  phone_num: string;
  permissions: number;
  services: number;
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
}: {
  target: UserDialogTarget;
  onSaved: () => void;
  onClosed: () => void;
}) {
  const mobile = useIsMobile();
  const callerMask = useSession((s) => s.permission);
  const callerBm = useSession((s) => s.backendManager);
  const callerId = useSession((s) => s.userID);
  const [form] = Form.useForm<UserForm>();
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);

  const user = target.mode === 'edit' ? target.user : null;
  const self = user !== null && user.id === callerId;
  const schema = user ? updateUserBody : addUserBody;
  const servicesEditable = canEditServices(callerMask, self);

  const initialValues: UserForm = {
    user_name: user?.user_name ?? '',
    password: '',
    email: user?.email ?? '',
    phone_num: user?.phone_num ?? '',
    permissions: user?.permissions ?? 0,
    services: user?.services ?? 0,
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
    return body;
  };

  const save = async () => {
    let values: UserForm;
    try {
      values = await form.validateFields();
    } catch {
      return; // The form shows what is wrong.
    }
    const base: Contact = {
      user_name: values.user_name.trim(),
      email: (values.email ?? '').trim(),
      phone_num: values.phone_num ?? '',
    };
    setSaving(true);
    const outcome = user
      ? await attempt(() => updateUser(editBody(user, values, base)))
      : await attempt(
          () => addUser({ ...base, password: values.password, permissions: values.permissions }),
          '新增成功',
        );
    setSaving(false);
    if (!outcome.ok) return; // 403/409: the warning says why; keep what was typed.
    if (user) {
      const waiting = 'pending_email' in outcome.data ? outcome.data.pending_email : '';
      toast.success(
        waiting && waiting !== user.pending_email
          ? `已保存；验证码已发到 ${waiting}，账号本人确认后邮箱才变更`
          : '修改成功',
      );
    }
    onSaved();
    setOpen(false);
  };

  return (
    <Modal
      title={user ? `编辑用户 ${user.user_name}` : '新增用户'}
      open={open}
      width={mobile ? '95%' : 640}
      mask={{ closable: false }}
      okText="保存"
      cancelText="取 消"
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={() => setOpen(false)}
      afterClose={onClosed}
    >
      <Form<UserForm>
        form={form}
        layout="vertical"
        name={user ? 'edit-user' : 'add-user'}
        initialValues={initialValues}
        autoComplete="off"
      >
        <Form.Item label="用户名" name="user_name" required rules={[zodRule(schema, 'user_name')]}>
          <Input maxLength={32} placeholder="请输入用户名" autoComplete="off" />
        </Form.Item>
        {!user && (
          <Form.Item label="密码" name="password" required rules={[zodRule(addUserBody, 'password')]}>
            <Input.Password maxLength={64} placeholder="8–64 个字符" autoComplete="new-password" />
          </Form.Item>
        )}
        <Form.Item
          label="邮箱"
          name="email"
          rules={[zodRule(schema, 'email')]}
          extra={
            user?.pending_email ? (
              <PendingEmail
                pending={user.pending_email}
                owner={self}
                onConfirmed={() => {
                  onSaved();
                  setOpen(false);
                }}
              />
            ) : user ? (
              '修改邮箱需账号本人输入发到新邮箱的验证码后才生效'
            ) : undefined
          }
        >
          <Input maxLength={254} placeholder="选填" autoComplete="off" inputMode="email" />
        </Form.Item>
        <Form.Item
          label="联系电话"
          name="phone_num"
          rules={[zodRule(schema, 'phone_num')]}
          getValueFromEvent={(e: { target: { value: string } }) => onlyDigits(e.target.value)}
        >
          <Input maxLength={20} placeholder="选填" inputMode="numeric" autoComplete="off" />
        </Form.Item>
        <Form.Item
          label="角色"
          name="permissions"
          required={!user}
          extra={
            self ? '不能修改自己的角色和服务' : '只能分配您有权分配的角色；勾选一个角色会同时勾选其下级角色'
          }
          rules={
            user
              ? []
              : [
                  {
                    validator: async (_rule, value: number | undefined) => {
                      if (!value) throw new Error('请至少选择一个角色');
                    },
                  },
                ]
          }
        >
          <RolePicker
            callerMask={callerMask}
            callerBm={callerBm}
            targetBm={targetIsBackendManager(callerMask, user)}
            self={self}
          />
        </Form.Item>
        {user && (
          <Form.Item label="服务" name="services">
            <ServicePicker disabled={!servicesEditable} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
