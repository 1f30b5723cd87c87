import { DEVICE_KINDS, type DeviceKind, type DeviceRow, type UserRow } from '@se/core';
import { useQueryClient } from '@tanstack/react-query';
import { Typography } from 'antd';
import { bindDevices } from '../../api/devices.ts';
import { listUsers } from '../../api/users.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { RemoteSelect } from '../notify/FormulaPickers.tsx';

interface Values {
  user_id: number | null;
}

/**
 * 分配给用户 from a device's drawer: binds this one device to a user the caller manages, with
 * the same call as 用户管理's 绑定设备 (SPEC §7); the server refuses an account outside the
 * caller's subtree.
 */
export function AssignDialog({
  kind,
  device,
  onSaved,
  onClosed,
}: DialogProps<{ kind: DeviceKind; device: DeviceRow }>) {
  const queryClient = useQueryClient();
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
        <Typography.Text type="secondary">
          已绑定：{device.owners.split(',').join('、') || '无'}
          。分配后该用户即可查看此设备；解绑请到“用户管理”的绑定设备。
        </Typography.Text>
      }
      submit={(v) => bindDevices(DEVICE_KINDS[kind], v.user_id!, [device.id], [])}
      success="分配成功"
      onSaved={() => {
        // The lists and the drawer show whom the device is bound to.
        void queryClient.invalidateQueries({ queryKey: ['devices'] });
        void queryClient.invalidateQueries({ queryKey: ['bind'] });
        onSaved();
      }}
      onClosed={onClosed}
    />
  );
}
