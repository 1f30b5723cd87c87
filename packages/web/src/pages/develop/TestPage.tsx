import { ReloadOutlined } from '@ant-design/icons';
import { formatDateTime, type OutboxMail } from '@se/core';
import { Alert, Button, Card, Tag, Typography } from 'antd';
import { getOutbox } from '../../api/develop.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { ListTable, NO_FILTERS, useListQuery, type ListColumn } from '../../components/list/index.ts';

const when = (value: string | number | null) =>
  value === null || value === '' ? '—' : formatDateTime(value);

// Captcha mails carry a 6-digit code; offering it alone saves picking it out of the text.
const captchaIn = (body: string) => /\b(\d{6})\b/.exec(body)?.[1];

const columns: ListColumn<OutboxMail>[] = [
  { title: 'ID', dataIndex: 'id', width: 80 },
  { title: '收件人', dataIndex: 'to_addr', ellipsis: true },
  { title: '主题', dataIndex: 'subject', ellipsis: true, card: false },
  { title: '创建时间', dataIndex: 'created_at', width: 180, render: when },
  {
    title: '状态',
    key: 'status',
    width: 220,
    // As the mail stands: 已排队 until an SMTP server accepted it (or for good without one).
    render: (_, mail) =>
      mail.error ? (
        <Tag color="error" title={mail.error} style={{ whiteSpace: 'normal' }}>
          失败（{mail.error}）
        </Tag>
      ) : mail.sent_at ? (
        <Tag color="success">已发送 {when(mail.sent_at)}</Tag>
      ) : (
        <Tag color="gold" title="未配置 SMTP 时邮件只保存在发件箱">
          已排队
        </Tag>
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
  const list = useListQuery({
    key: ['develop', 'outbox'],
    filters: NO_FILTERS,
    load: (_, paging) => getOutbox(paging),
  });
  return (
    <Card
      title="邮件发件箱"
      extra={
        <Button icon={<ReloadOutlined />} onClick={list.refresh} loading={list.query.isFetching}>
          刷新
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        未配置 SMTP 时，系统发出的邮件（如注册、找回密码的验证码）只保存在这里。
      </Typography.Paragraph>
      <ListTable
        list={list}
        columns={columns}
        rowKey="id"
        empty="暂无邮件"
        cardTitle={(mail) => mail.subject}
        expand={(mail) => (
          <div>
            {mail.error && <Alert type="error" showIcon style={{ marginBottom: 8 }} title={mail.error} />}
            <pre style={{ whiteSpace: 'pre-wrap', margin: 0, fontFamily: 'inherit' }}>{mail.body}</pre>
          </div>
        )}
      />
    </Card>
  );
}
