import { DEVICE_KINDS, type DeviceKind, type DeviceRow, type UserRow } from '@se/core';
import { useQueryClient } from '@tanstack/react-query';
import { Flex, Tag, Typography } from 'antd';
import { bindDevices } from '../../api/devices.ts';
import { listUsers } from '../../api/users.ts';
import { attempt } from '../../components/feedback.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { ConfirmButton } from '../../components/list/index.ts';
import { RemoteSelect } from '../notify/FormulaPickers.tsx';

interface Values {
  user_id: number | null;
}

/**
 * 分配给用户 from a device's drawer: binds this one device to a user the caller manages, with
 * the same call as 用户管理's 绑定设备 (SPEC §7); the server refuses an account outside the
 * caller's subtree. It lists the accounts the device is bound to (the drawer's single answer,
 * `bound_users`), each one the caller manages with 解绑 (the same call's `remove_ids`).
 */
export function AssignDialog({
  kind,
  device,
  onSaved,
  onClosed,
}: DialogProps<{ kind: DeviceKind; device: DeviceRow }>) {
  const queryClient = useQueryClient();
  // The lists and the drawer show whom the device is bound to.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['devices'] });
    void queryClient.invalidateQueries({ queryKey: ['bind'] });
  };
  const paths = DEVICE_KINDS[kind];
  const bound = device.bound_users;
  return (
    <FormModal<Values, unknown>
      title={`分配${DEVICE_KINDS[kind].label} ${device.ser_num}`}
      width={480}
      name="assign-device"
      okText="分配"
      initialValues={{ user_id: null }}
      fields={[
        {
          name: 'user_id',
          label: '分配给用户',
          required: true,
          rules: [{ required: true, message: '请选择用户' }],
          render: () => (
            <RemoteSelect<UserRow>
              queryKey="assign-user"
              load={(keywords) => listUsers({ keywords, page: 1, page_size: 20 })}
              toOption={(u) => ({ value: u.id, label: u.user_name })}
              placeholder="搜索用户名 / ID / 邮箱 / 电话"
              ariaLabel="分配给用户"
            />
          ),
        },
      ]}
      footer={
        bound ? (
          <Flex vertical gap={4}>
            <Typography.Text type="secondary">已绑定用户</Typography.Text>
            {bound.length === 0 && <Typography.Text type="secondary">无</Typography.Text>}
            {bound.map((u) => (
              <Flex key={u.id} align="center" justify="space-between" gap={8}>
                <Tag>{u.user_name}</Tag>
                {u.manageable && (
                  <ConfirmButton
                    title="解绑用户"
                    description={`解绑后 ${u.user_name} 将不再看到 ${device.ser_num}，确定解绑吗？`}
                    okText="解绑"
                    onConfirm={async () => {
                      const r = await attempt(() => bindDevices(paths, u.id, [], [device.id]), '已解绑');
                      if (r.ok) refresh();
                    }}
                  >
                    解绑
                  </ConfirmButton>
                )}
              </Flex>
            ))}
          </Flex>
        ) : (
          <Typography.Text type="secondary">
            已绑定：{device.owners.split(',').join('、') || '无'}
          </Typography.Text>
        )
      }
      submit={(v) => bindDevices(paths, v.user_id!, [device.id], [])}
      success="分配成功"
      onSaved={() => {
        refresh();
        onSaved();
      }}
      onClosed={onClosed}
    />
  );
}
