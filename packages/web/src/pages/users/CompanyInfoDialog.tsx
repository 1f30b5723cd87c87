import { TEXT_MAX, updateInfoBody, type UserRow } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Modal, Spin } from 'antd';
import { useState } from 'react';
import { getUserInfo } from '../../api/user.ts';
import { updateUserInfoOf } from '../../api/users.ts';
import { zodRule } from '../../components/form-rules.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';

interface CompanyForm {
  company_name: string;
  company_address: string;
}

/** 公司信息 of one user (get-info / update-info with its user_id). */
export function CompanyInfoDialog({
  user,
  onSaved,
  onClosed,
}: {
  user: UserRow;
  onSaved: () => void;
  onClosed: () => void;
}) {
  const mobile = useIsMobile();
  const [form] = Form.useForm<CompanyForm>();
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);
  const info = useQuery({
    queryKey: ['users', 'info', user.id],
    queryFn: () => loadOrThrow(() => getUserInfo(user.id)),
    // The dialog edits what is stored now, not what an earlier opening saw.
    gcTime: 0,
  });

  // Nothing to edit when the info cannot be read; the toast has said why.
  if (info.isError && open) setOpen(false);

  const save = async () => {
    let values: CompanyForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    const outcome = await attempt(
      () =>
        updateUserInfoOf(user.id, {
          company_name: values.company_name.trim(),
          company_address: values.company_address.trim(),
        }),
      '保存成功',
    );
    setSaving(false);
    if (!outcome.ok) return;
    onSaved();
    setOpen(false);
  };

  return (
    <Modal
      title={`公司信息 - ${user.user_name}`}
      open={open}
      width={mobile ? '95%' : 560}
      mask={{ closable: false }}
      okText="保存"
      cancelText="取 消"
      okButtonProps={{ disabled: !info.isSuccess }}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={() => setOpen(false)}
      afterClose={onClosed}
    >
      {info.isSuccess ? (
        <Form<CompanyForm>
          form={form}
          layout="vertical"
          name="company-info"
          initialValues={{ company_name: info.data.company_name, company_address: info.data.company_address }}
        >
          <Form.Item label="公司名称" name="company_name" rules={[zodRule(updateInfoBody, 'company_name')]}>
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 4 }}
              maxLength={TEXT_MAX}
              placeholder="请输入公司名称"
            />
          </Form.Item>
          <Form.Item
            label="公司地址"
            name="company_address"
            rules={[zodRule(updateInfoBody, 'company_address')]}
          >
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 4 }}
              maxLength={TEXT_MAX}
              placeholder="请输入公司地址"
            />
          </Form.Item>
        </Form>
      ) : (
        <Spin spinning description="加载中">
          <div style={{ height: 160 }} />
        </Spin>
      )}
    </Modal>
  );
}
