import { ReloadOutlined } from '@ant-design/icons';
import { CODE, formatDateTime, type OutboxMail } from '@se/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { getOutbox } from '../../api/develop.ts';
import { isSessionCode } from '../../api/client.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { errorText } from '../../components/error-text.ts';
import { usePager } from '../../components/pager.ts';

const when = (value: string | number | null) =>
  value === null || value === '' ? '—' : formatDateTime(value);

// Captcha mails carry a 6-digit code; offering it alone saves picking it out of the text.
const captchaIn = (body: string) => /\b(\d{6})\b/.exec(body)?.[1];

const columns: TableColumnsType<OutboxMail> = [
  { title: 'ID', dataIndex: 'id', width: 80 },
  { title: '收件人', dataIndex: 'to_addr', ellipsis: true },
  { title: '主题', dataIndex: 'subject', ellipsis: true },
  { title: '创建时间', dataIndex: 'created_at', width: 180, render: when },
  {
    title: '状态',
    key: 'status',
    width: 220,
    render: (_, mail) =>
      mail.error ? (
        <Tag color="error" title={mail.error}>
          发送失败
        </Tag>
      ) : mail.sent_at ? (
        <Tag color="success">已发送 {when(mail.sent_at)}</Tag>
      ) : (
        <Tag>仅存于发件箱</Tag>
      ),
  },
  {
    title: '验证码',
    key: 'captcha',
    width: 150,
    render: (_, mail) => {
      const code = captchaIn(mail.body);
      return code ? (
        <CopyButton text={code} size="small">
          {code}
        </CopyButton>
      ) : null;
    },
  },
];

/** /test: the mail outbox, so developers can read captcha mails where no SMTP is configured. */
export default function TestPage() {
  const pager = usePager();
  const outbox = useQuery({
    queryKey: ['develop', 'outbox', pager.page, pager.pageSize],
    queryFn: async () => {
      const res = await getOutbox({ page: pager.page, page_size: pager.pageSize });
      if (res.code !== CODE.ok) throw new Error(isSessionCode(res.code) ? '' : res.message);
      return res.data;
    },
    placeholderData: keepPreviousData,
  });

  return (
    <Card
      title="邮件发件箱"
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void outbox.refetch()} loading={outbox.isFetching}>
          刷新
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        未配置 SMTP 时，系统发出的邮件（如注册、找回密码的验证码）只保存在这里。
      </Typography.Paragraph>
      {outbox.isError && outbox.error.message && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={errorText(outbox.error)} />
      )}
      <Table<OutboxMail>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={outbox.data?.list ?? []}
        loading={outbox.isFetching}
        scroll={{ x: 900 }}
        pagination={pager.pagination(outbox.data?.total ?? 0)}
        expandable={{
          expandedRowRender: (mail) => (
            <div>
              {mail.error && <Alert type="error" showIcon style={{ marginBottom: 8 }} title={mail.error} />}
              <pre style={{ whiteSpace: 'pre-wrap', margin: 0, fontFamily: 'inherit' }}>{mail.body}</pre>
            </div>
          ),
        }}
      />
    </Card>
  );
}
