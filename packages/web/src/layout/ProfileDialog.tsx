import type { UserInfo } from '@se/core';
import { Button, Form, Modal, Spin } from 'antd';
import { useCallback, useState, type ReactNode } from 'react';
import { getUserInfo, updateUserInfo } from '../api/user.ts';
import { companyFields, phoneField } from '../components/contact-fields.ts';
import { attempt } from '../components/feedback.ts';
import { SchemaFields, type FormField } from '../components/form-fields.tsx';
import { PendingEmail } from '../components/PendingEmail.tsx';
import { runCall } from '../components/run-call.ts';
import { useSession } from '../session/store.ts';

interface ProfileForm {
  user_name: string;
  email: string;
  pending_email: string;
  phone_num: string;
  company_name: string;
  company_address: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** SPEC §5: nothing usable in the answer means empty fields, not an error. */
export function profileFromInfo(
  info: Partial<UserInfo> | null | undefined,
  fallbackName: string,
): ProfileForm {
  return {
    user_name: text(info?.user_name) || fallbackName,
    email: text(info?.email),
    pending_email: text(info?.pending_email),
    phone_num: text(info?.phone_num),
    company_name: text(info?.info?.company_name ?? info?.company_name),
    company_address: text(info?.info?.company_address ?? info?.company_address),
  };
}

// The audit log's id filters import it from here.
export { onlyDigits } from '../components/contact-fields.ts';

/**
 * The 修改信息 dialog of SPEC §2: opened by `open()`, which shows it only once the user
 * info has loaded. Returns the opener and the element to render once in the shell.
 */
export function useProfileDialog(): { open: () => void; element: ReactNode } {
  const [form] = Form.useForm<ProfileForm>();
  // The loaded values; the form is created with them each time the dialog opens.
  const [loaded, setLoaded] = useState<ProfileForm | null>(null);
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);
  const userID = useSession((s) => s.userID);
  const userName = useSession((s) => s.userName);

  const open = useCallback(
    () =>
      runCall(() => getUserInfo(userID), {
        busy: setBusy,
        onOk: (info) => {
          setLoaded(profileFromInfo(info, userName));
          setVisible(true);
        },
      }),
    [userID, userName],
  );

  const confirm = async () => {
    const { company_name, company_address, phone_num } = form.getFieldsValue();
    setVisible(false);
    setBusy(true);
    await attempt(() => updateUserInfo({ company_name, company_address, phone_num }), '修改成功');
    setBusy(false);
  };

  const fields: FormField<ProfileForm>[] = [
    { name: 'user_name', label: '用户名', disabled: true },
    {
      name: 'email',
      label: '邮箱',
      disabled: true,
      placeholder: '未设置',
      extra: (
        <PendingEmail
          pending={loaded?.pending_email ?? ''}
          owner
          onConfirmed={(row) => {
            setLoaded((l) => l && { ...l, email: row.email, pending_email: row.pending_email });
            form.setFieldValue('email', row.email);
          }}
        />
      ),
    },
    phoneField('请输入联系电话', 'tel'),
    ...companyFields<ProfileForm>(),
  ];

  const element = (
    <>
      <Spin fullscreen spinning={busy && !visible} description="加载中" />
      <Modal
        title="修改信息"
        open={visible}
        width="95%"
        style={{ top: '4vh' }}
        mask={{ closable: false }}
        onCancel={() => setVisible(false)}
        // Nothing of the dialog stays in the page while it is closed; it is rebuilt on opening.
        destroyOnHidden
        footer={[
          <Button key="cancel" onClick={() => setVisible(false)}>
            取 消
          </Button>,
          <Button key="ok" type="primary" onClick={() => void confirm()}>
            确定
          </Button>,
        ]}
      >
        <Spin spinning={busy}>
          <Form form={form} layout="vertical" name="profile" initialValues={loaded ?? undefined}>
            <SchemaFields fields={fields} />
          </Form>
        </Spin>
      </Modal>
    </>
  );

  return { open: () => void open(), element };
}
