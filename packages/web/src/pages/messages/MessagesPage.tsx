import { CheckOutlined } from '@ant-design/icons';
import { MESSAGE_KINDS, type MessageKind, type MessageRow } from '@se/core';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Modal, Tag, Typography } from 'antd';
import { useEffect, useState, type Key } from 'react';
import {
  MESSAGES_KEY,
  UNREAD_KEY,
  listMessages,
  markRead,
  readAll,
  removeMessages,
  type MessageFilter,
} from '../../api/messages.ts';
import { attempt } from '../../components/feedback.ts';
import {
  DeleteButton,
  ListCard,
  ListView,
  dateRange,
  rangeQuery,
  segmented,
  select,
  text,
  useListQuery,
  type FilterFields,
  type ListColumn,
  type Range,
} from '../../components/list/index.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { useLiveChannel } from '../../live/socket.ts';

const KIND_COLORS: Record<MessageKind, string> = { alarm: 'red', rule: 'orange', system: 'blue' };
const MESSAGES_CHANNEL = { channel: 'messages' } as const;
const LIST_KEY = [...MESSAGES_KEY, 'list'];

type ReadFilter = 'all' | 'unread' | 'read';

interface Filters {
  read: ReadFilter;
  kind: MessageKind | undefined;
  range: Range;
  keywords: string;
}

const FILTERS: FilterFields<Filters> = {
  read: segmented<ReadFilter>({
    options: [
      { label: '全部', value: 'all' },
      { label: '未读', value: 'unread' },
      { label: '已读', value: 'read' },
    ],
  }),
  kind: select<MessageKind>({
    placeholder: '全部类型',
    label: '消息类型',
    width: 130,
    instant: true,
    options: Object.entries(MESSAGE_KINDS).map(([value, label]) => ({ value: value as MessageKind, label })),
  }),
  range: dateRange({ instant: true }),
  keywords: text({ placeholder: '标题 / 内容', width: 220, search: true }),
};

/** The list query a set of filters stands for; blank inputs are left out. */
export function messageQuery(f: Filters): MessageFilter {
  return {
    read: f.read === 'all' ? undefined : f.read,
    kind: f.kind,
    keywords: f.keywords.trim() || undefined,
    ...rangeQuery(f.range),
  };
}

const KindTag = ({ kind }: { kind: MessageKind }) => (
  <Tag color={KIND_COLORS[kind]}>{MESSAGE_KINDS[kind]}</Tag>
);

/** /messages: the signed-in user's inbox (alarms and rule notifications). */
export default function MessagesPage() {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const list = useListQuery({
    key: LIST_KEY,
    filters: FILTERS,
    load: (f, paging) => listMessages({ ...messageQuery(f), ...paging }),
  });
  const [selected, setSelected] = useState<Key[]>([]);
  const [opened, setOpened] = useState<MessageRow | null>(null);
  const [busy, setBusy] = useState(false);
  // A new search starts with nothing selected.
  useEffect(() => setSelected([]), [list.search]);

  // New messages (or reads in another tab) arrive as a new unread count.
  useLiveChannel(MESSAGES_CHANNEL, list.refresh);

  const changed = (unread: number) => {
    queryClient.setQueryData(UNREAD_KEY, { unread });
    list.refresh();
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

  const title = (m: MessageRow) => (
    <Button
      type="link"
      onClick={() => void open(m)}
      aria-label={`${m.read ? '' : '未读：'}${m.title}`}
      style={{
        padding: 0,
        height: 'auto',
        fontWeight: m.read ? 400 : 600,
        color: m.read ? undefined : 'inherit',
        whiteSpace: 'normal',
        textAlign: 'start',
      }}
    >
      {!m.read && (
        <span aria-hidden style={{ color: '#1677ff' }}>
          ●
        </span>
      )}
      {m.title}
    </Button>
  );

  const columns: ListColumn<MessageRow>[] = [
    { title: '标题', dataIndex: 'title', ellipsis: true, card: false, render: (_, m) => title(m) },
    {
      title: '类型',
      dataIndex: 'kind',
      width: 100,
      card: false,
      render: (k: MessageKind) => <KindTag kind={k} />,
    },
    {
      title: '内容',
      dataIndex: 'content',
      ellipsis: true,
      render: (c: string, m) => (
        <Typography.Text type={m.read ? 'secondary' : undefined} strong={!m.read}>
          {c}
        </Typography.Text>
      ),
    },
    { title: '时间', dataIndex: 'created_at', width: 170 },
  ];
  const ids = selected as number[];

  return (
    <ListCard>
      <ListView
        list={list}
        buttons={false}
        refresh
        listActions={
          <>
            <Button
              icon={<CheckOutlined />}
              loading={busy}
              onClick={() => void run(readAll, '已全部标记为已读')}
            >
              全部已读
            </Button>
            <Button
              disabled={!ids.length}
              loading={busy}
              onClick={() => void run(() => markRead(ids), '已标记为已读')}
            >
              标记已读{ids.length ? `（${ids.length}）` : ''}
            </Button>
            <DeleteButton
              title="删除消息"
              description={`确定删除选中的 ${ids.length} 条消息吗？删除后不可恢复。`}
              size="middle"
              type="default"
              disabled={!ids.length}
              loading={busy}
              onConfirm={() => run(() => removeMessages(ids), '删除成功')}
            >
              删除{ids.length ? `（${ids.length}）` : ''}
            </DeleteButton>
          </>
        }
        columns={columns}
        rowKey="id"
        empty={list.filtered ? '没有符合条件的消息' : '暂无消息'}
        selection={{ selected, onChange: setSelected }}
        cardTitle={title}
        cardExtra={(m) => <KindTag kind={m.kind} />}
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
              <KindTag kind={opened.kind} />
              <Typography.Text type="secondary">{opened.created_at}</Typography.Text>
            </Flex>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
              {opened.content}
            </Typography.Paragraph>
          </Flex>
        )}
      </Modal>
    </ListCard>
  );
}
