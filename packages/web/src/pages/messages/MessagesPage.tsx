import { CheckOutlined, DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { MESSAGE_KINDS, type MessageKind, type MessageRow } from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  DatePicker,
  Empty,
  Flex,
  Input,
  Modal,
  Popconfirm,
  Segmented,
  Select,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import {
  MESSAGES_KEY,
  UNREAD_KEY,
  listMessages,
  markRead,
  readAll,
  removeMessages,
  type MessageFilter,
} from '../../api/messages.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { usePager } from '../../components/pager.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { useLiveChannel } from '../../live/socket.ts';

const SERVER_TIME = 'YYYY-MM-DD HH:mm:ss';
const KIND_COLORS: Record<MessageKind, string> = { alarm: 'red', rule: 'orange', system: 'blue' };
const MESSAGES_CHANNEL = { channel: 'messages' } as const;

type ReadFilter = 'all' | 'unread' | 'read';

interface Filters {
  read: ReadFilter;
  kind: MessageKind | undefined;
  keywords: string;
  range: [Dayjs | null, Dayjs | null] | null;
}

export const NO_FILTERS: Filters = { read: 'all', kind: undefined, keywords: '', range: null };

/** The list query a set of filters stands for; blank inputs are left out. */
export function messageQuery(f: Filters): MessageFilter {
  const [start, end] = f.range ?? [null, null];
  return {
    read: f.read === 'all' ? undefined : f.read,
    kind: f.kind,
    keywords: f.keywords.trim() || undefined,
    start: start ? start.format(SERVER_TIME) : undefined,
    end: end ? end.format(SERVER_TIME) : undefined,
  };
}

/** /messages: the signed-in user's inbox (alarms and rule notifications). */
export default function MessagesPage() {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const pager = usePager();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [draftKeywords, setDraftKeywords] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [opened, setOpened] = useState<MessageRow | null>(null);
  const [busy, setBusy] = useState(false);

  const query = messageQuery(filters);
  const list = useQuery({
    queryKey: [...MESSAGES_KEY, 'list', query, pager.page, pager.pageSize],
    queryFn: () => loadOrThrow(() => listMessages({ ...query, page: pager.page, page_size: pager.pageSize })),
    placeholderData: keepPreviousData,
  });

  // New messages (or reads in another tab) arrive as a new unread count.
  useLiveChannel(
    MESSAGES_CHANNEL,
    () => void queryClient.invalidateQueries({ queryKey: [...MESSAGES_KEY, 'list'] }),
  );

  const apply = (next: Filters) => {
    setFilters(next);
    setSelected([]);
    pager.reset();
  };

  const changed = (unread: number) => {
    queryClient.setQueryData(UNREAD_KEY, { unread });
    void queryClient.invalidateQueries({ queryKey: [...MESSAGES_KEY, 'list'] });
  };

  const run = async (call: Parameters<typeof attempt<{ unread: number }>>[0], success: string) => {
    setBusy(true);
    const out = await attempt(call, success);
    setBusy(false);
    if (out.ok) {
      setSelected([]);
      changed(out.data.unread);
    }
  };

  const open = async (m: MessageRow) => {
    setOpened(m);
    if (!m.read) {
      const out = await attempt(() => markRead([m.id]));
      if (out.ok) changed(out.data.unread);
    }
  };

  const rows = list.data?.list ?? [];
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS);

  const columns: TableColumnsType<MessageRow> = [
    {
      title: '标题',
      dataIndex: 'title',
      ellipsis: true,
      render: (title: string, m) => (
        <Button
          type="link"
          onClick={() => void open(m)}
          aria-label={`${m.read ? '' : '未读：'}${title}`}
          style={{
            padding: 0,
            height: 'auto',
            fontWeight: m.read ? 400 : 600,
            color: m.read ? undefined : 'inherit',
          }}
        >
          {!m.read && (
            <span aria-hidden style={{ color: '#1677ff' }}>
              ●
            </span>
          )}
          {title}
        </Button>
      ),
    },
    {
      title: '类型',
      dataIndex: 'kind',
      width: 100,
      render: (k: MessageKind) => <Tag color={KIND_COLORS[k]}>{MESSAGE_KINDS[k]}</Tag>,
    },
    ...(mobile
      ? []
      : [
          {
            title: '内容',
            dataIndex: 'content',
            ellipsis: true,
            render: (c: string, m: MessageRow) => (
              <Typography.Text type={m.read ? 'secondary' : undefined} strong={!m.read}>
                {c}
              </Typography.Text>
            ),
          },
        ]),
    { title: '时间', dataIndex: 'created_at', width: mobile ? 110 : 170 },
  ];

  return (
    <Card styles={{ body: { padding: mobile ? 12 : 24 } }}>
      <Flex wrap gap="small" style={{ marginBottom: 16 }} align="center">
        <Segmented<ReadFilter>
          value={filters.read}
          onChange={(read) => apply({ ...filters, read })}
          options={[
            { label: '全部', value: 'all' },
            { label: '未读', value: 'unread' },
            { label: '已读', value: 'read' },
          ]}
        />
        <Select<MessageKind | undefined>
          value={filters.kind}
          onChange={(kind) => apply({ ...filters, kind })}
          allowClear
          placeholder="全部类型"
          aria-label="消息类型"
          style={{ width: 130 }}
          options={Object.entries(MESSAGE_KINDS).map(([value, label]) => ({
            value: value as MessageKind,
            label,
          }))}
        />
        <DatePicker.RangePicker
          value={filters.range}
          onChange={(range) =>
            apply({
              ...filters,
              range: range ? [range[0]?.startOf('day') ?? null, range[1]?.endOf('day') ?? null] : null,
            })
          }
          placeholder={['开始日期', '结束日期']}
          inputReadOnly={mobile}
          style={{ width: mobile ? '100%' : 260 }}
        />
        <Input.Search
          value={draftKeywords}
          onChange={(e) => setDraftKeywords(e.target.value)}
          onSearch={(keywords) => apply({ ...filters, keywords })}
          allowClear
          placeholder="标题 / 内容"
          style={{ width: mobile ? '100%' : 220 }}
        />
        <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} aria-label="刷新" />
      </Flex>
      <Flex wrap gap="small" style={{ marginBottom: 12 }}>
        <Button icon={<CheckOutlined />} loading={busy} onClick={() => void run(readAll, '已全部标记为已读')}>
          全部已读
        </Button>
        <Button
          disabled={!selected.length}
          loading={busy}
          onClick={() => void run(() => markRead(selected), '已标记为已读')}
        >
          标记已读{selected.length ? `（${selected.length}）` : ''}
        </Button>
        <Popconfirm
          title="删除消息"
          description={`确定删除选中的 ${selected.length} 条消息吗？删除后不可恢复。`}
          okText="删除"
          okButtonProps={{ danger: true }}
          cancelText="取 消"
          disabled={!selected.length}
          onConfirm={() => run(() => removeMessages(selected), '删除成功')}
        >
          <Button danger icon={<DeleteOutlined />} disabled={!selected.length} loading={busy}>
            删除{selected.length ? `（${selected.length}）` : ''}
          </Button>
        </Popconfirm>
      </Flex>
      <Table<MessageRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={list.isFetching}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={filtered ? '没有符合条件的消息' : '暂无消息'}
            />
          ),
        }}
        pagination={pager.pagination(list.data?.total ?? 0)}
      />
      <Modal
        open={opened !== null}
        title={opened?.title}
        onCancel={() => setOpened(null)}
        footer={<Button onClick={() => setOpened(null)}>关闭</Button>}
        width={mobile ? '95%' : 560}
      >
        {opened && (
          <Flex vertical gap="small">
            <Flex gap="small" align="center">
              <Tag color={KIND_COLORS[opened.kind]}>{MESSAGE_KINDS[opened.kind]}</Tag>
              <Typography.Text type="secondary">{opened.created_at}</Typography.Text>
            </Flex>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
              {opened.content}
            </Typography.Paragraph>
          </Flex>
        )}
      </Modal>
    </Card>
  );
}
