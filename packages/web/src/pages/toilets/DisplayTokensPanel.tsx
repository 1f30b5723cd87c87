import { addDisplayTokenBody, type DisplayTokenRow, type NewDisplayToken } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { addDisplayToken, listDisplayTokens, revokeDisplayToken } from '../../api/display.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { SchemaFields, type FormField } from '../../components/form-fields.tsx';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { ConfirmButton } from '../../components/list/index.ts';
import { displayUrl } from './detail-text.ts';
import { toiletsKey } from './keys.ts';
import { TabTable } from './TabTable.tsx';

const FIELDS: FormField<{ name: string }>[] = [
  {
    name: 'name',
    label: '名称',
    required: true,
    maxLength: 50,
    placeholder: '如 男厕入口屏',
    extra: '用来认出这块屏，如 男厕入口屏',
  },
];

/** Creating a token: its name, then its address, shown this once. */
function CreateDialog({ toiletId, onSaved, onClosed }: DialogProps<{ toiletId: number }>) {
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const [made, setMade] = useState<NewDisplayToken | null>(null);
  const submit = async ({ name }: { name: string }) => {
    setSaving(true);
    const outcome = await attempt(() => addDisplayToken(toiletId, name.trim()), '显示令牌已创建');
    setSaving(false);
    if (outcome.ok) {
      setMade(outcome.data);
      onSaved();
    }
  };
  const url = made ? displayUrl(window.location.origin, made.token) : '';
  return (
    <FormModal
      open
      title={made ? `显示屏地址 · ${made.name}` : '新建显示令牌'}
      width={560}
      okText={made ? '完成' : '创建'}
      cancelHidden={!!made}
      saving={saving}
      onSave={() => (made ? onClosed() : form.submit())}
      // The panel unmounts the dialog on closing; there is no fade to wait for.
      onCancel={onClosed}
      onClosed={() => {}}
    >
      {made ? (
        <Flex vertical gap={12} style={{ marginTop: 12 }}>
          <Alert
            type="warning"
            showIcon
            title="请现在复制地址并在厕所内的显示屏上打开；令牌只显示这一次，服务器只保存其摘要。"
          />
          <Typography.Paragraph
            code
            copyable={false}
            style={{ wordBreak: 'break-all', margin: 0 }}
            data-testid="display-url"
          >
            {url}
          </Typography.Paragraph>
          <Flex gap={8}>
            <CopyButton text={url}>复制地址</CopyButton>
            <Button href={url} target="_blank" rel="noreferrer">
              打开显示屏
            </Button>
          </Flex>
        </Flex>
      ) : (
        <Form
          form={form}
          layout="vertical"
          autoComplete="off"
          style={{ marginTop: 16 }}
          initialValues={{ name: '', toilet_id: toiletId }}
          onFinish={(v) => void submit(v)}
        >
          <SchemaFields fields={FIELDS} schema={addDisplayTokenBody} />
        </Form>
      )}
    </FormModal>
  );
}

/** 显示屏: long-lived tokens that sign a screen in the toilet into /eternal-page. */
export function DisplayTokensPanel({ toiletId, canManage }: { toiletId: number; canManage: boolean }) {
  const [creating, setCreating] = useState(false);
  const key = [...toiletsKey, 'display-tokens', toiletId];
  const tokens = useQuery({ queryKey: key, queryFn: () => loadOrThrow(() => listDisplayTokens(toiletId)) });
  const revoke = async (row: DisplayTokenRow) => {
    const outcome = await attempt(() => revokeDisplayToken(row.id), `已吊销 ${row.name}`);
    if (outcome.ok) void tokens.refetch();
  };
  const columns: TableColumnsType<DisplayTokenRow> = [
    { title: '名称', dataIndex: 'name', ellipsis: true },
    {
      title: '状态',
      key: 'state',
      width: 90,
      render: (_, r) => (r.revoked_at ? <Tag>已吊销</Tag> : <Tag color="success">有效</Tag>),
    },
    { title: '创建人', dataIndex: 'created_by_name', width: 110, render: (n: string) => n || '—' },
    { title: '创建时间', dataIndex: 'created_at', width: 170 },
    {
      title: '最近访问',
      key: 'seen',
      width: 170,
      render: (_, r) => r.last_seen_at ?? <Typography.Text type="secondary">从未打开</Typography.Text>,
    },
    ...(canManage
      ? [
          {
            title: '操作',
            key: 'actions',
            width: 90,
            render: (_: unknown, r: DisplayTokenRow) =>
              r.revoked_at ? (
                <Typography.Text type="secondary">{r.revoked_at}</Typography.Text>
              ) : (
                <ConfirmButton
                  title="吊销显示令牌"
                  description={`吊销后使用 ${r.name} 的显示屏将显示“显示令牌已失效”。确定吊销吗？`}
                  okText="吊销"
                  onConfirm={() => revoke(r)}
                >
                  吊销
                </ConfirmButton>
              ),
          },
        ]
      : []),
  ];
  return (
    <Flex vertical gap={12}>
      <TabTable
        summary={
          <Typography.Text type="secondary">
            厕所内的显示屏用令牌打开 /eternal-page，显示厕位占用、空气质量、开放时间和评价二维码。
          </Typography.Text>
        }
        add={canManage ? { label: '新建显示令牌', onClick: () => setCreating(true) } : undefined}
        rows={tokens.data ?? []}
        columns={columns}
        width={640}
        empty="暂无显示令牌"
        loading={tokens.isFetching}
      />
      {creating && (
        <CreateDialog
          toiletId={toiletId}
          onSaved={() => void tokens.refetch()}
          onClosed={() => setCreating(false)}
        />
      )}
    </Flex>
  );
}
