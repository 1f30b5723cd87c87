import {
  DownloadOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  ReloadOutlined,
  SearchOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import {
  COMMENT_FLAGS,
  COMMENT_FLAG_KEYS,
  COMMENT_LEVELS,
  type CommentRow,
  type CommentSource,
} from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Descriptions,
  Empty,
  Flex,
  Input,
  Pagination,
  Popconfirm,
  Rate,
  Select,
  Spin,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
  type TableProps,
} from 'antd';
import dayjs from 'dayjs';
import { useCallback, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { commentStats, listComments, setCommentHidden } from '../../api/comments.ts';
import { startExport } from '../../api/downloads.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { usePager } from '../../components/pager.ts';
import { loadNotification, TOAST_TITLES } from '../../components/toast.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { useLiveChannel } from '../../live/socket.ts';
import { usePageClamp } from '../devices/use-page-clamp.ts';
import {
  FLAG_OPTIONS,
  NO_FILTERS,
  SERVER_TIME,
  SOURCE_OPTIONS,
  STAR_OPTIONS,
  commentQuery,
  flagWords,
  isFiltered,
  sourceText,
  type CommentFilters,
  type CommentSort,
} from './comment-filter.ts';
import { ToiletPicker } from './ToiletPicker.tsx';

export const commentsKey = ['comments'] as const;
const COMMENTS_CHANNEL = { channel: 'comments' } as const;

function Stars({ value }: { value: number }) {
  return (
    <Flex align="center" gap={6} wrap={false}>
      <Rate disabled value={value} style={{ fontSize: 14, whiteSpace: 'nowrap' }} />
      <span>{COMMENT_LEVELS[value]}</span>
    </Flex>
  );
}

function FlagTags({ comment }: { comment: CommentRow }) {
  const words = flagWords(comment);
  if (words.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Flex wrap gap={4}>
      {words.map((w) => (
        <Tag key={w} color="orange" style={{ marginInlineEnd: 0 }}>
          {w}
        </Tag>
      ))}
    </Flex>
  );
}

function Content({ comment }: { comment: CommentRow }) {
  return (
    <span>
      {comment.is_delete && (
        <Tag color="default" style={{ marginInlineEnd: 6 }}>
          已隐藏
        </Tag>
      )}
      {comment.content ? (
        <Typography.Text type={comment.is_delete ? 'secondary' : undefined}>
          {comment.content}
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary">（无文字）</Typography.Text>
      )}
    </span>
  );
}

/** /comment: reviews of the toilets and terminals the operator can see. */
export default function CommentsPage() {
  const mobile = useIsMobile();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pager = usePager();
  const [draft, setDraft] = useState<CommentFilters>(NO_FILTERS);
  const [applied, setApplied] = useState({ filters: NO_FILTERS, seq: 0 });
  const [sort, setSort] = useState<CommentSort>('time');
  const [busyId, setBusyId] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);
  const [fresh, setFresh] = useState(0);

  const query = commentQuery(applied.filters, sort);
  const comments = useQuery({
    queryKey: [...commentsKey, 'list', query, applied.seq, pager.page, pager.pageSize],
    queryFn: () => loadOrThrow(() => listComments({ ...query, page: pager.page, page_size: pager.pageSize })),
    placeholderData: keepPreviousData,
  });
  const stats = useQuery({
    queryKey: [...commentsKey, 'stats', { ...query, sort: undefined }, applied.seq],
    queryFn: () => loadOrThrow(() => commentStats({ ...query, sort: undefined })),
    placeholderData: keepPreviousData,
  });
  usePageClamp(pager, comments.data);

  const refresh = () => {
    setFresh(0);
    void queryClient.invalidateQueries({ queryKey: commentsKey });
  };
  // New reviews announce themselves; the list moves only when the operator asks.
  const onPush = useCallback(
    (data: unknown) => setFresh((n) => n + (Array.isArray(data) ? data.length : 1)),
    [],
  );
  useLiveChannel(COMMENTS_CHANNEL, onPush);

  const apply = (filters: CommentFilters) => {
    setApplied((a) => ({ filters, seq: a.seq + 1 }));
    setFresh(0);
    pager.reset();
  };

  const toggle = async (c: CommentRow) => {
    setBusyId(c.id);
    const hide = !c.is_delete;
    const outcome = await attempt(() => setCommentHidden(c.id, hide), hide ? '评价已隐藏' : '评价已恢复');
    setBusyId(null);
    if (outcome.ok) void queryClient.invalidateQueries({ queryKey: commentsKey });
  };

  const exportAll = async () => {
    setExporting(true);
    const outcome = await attempt(() => startExport('comments', { ...query, sort: undefined }));
    setExporting(false);
    if (!outcome.ok) return;
    void loadNotification()
      .then((api) =>
        api.success({
          title: TOAST_TITLES.success,
          placement: 'topRight',
          description: (
            <span>
              已加入下载中心，
              <a
                href="/download"
                onClick={(e) => {
                  e.preventDefault();
                  void navigate('/download');
                }}
              >
                前往下载中心
              </a>
            </span>
          ),
        }),
      )
      .catch(() => {});
  };

  const action = (c: CommentRow): ReactNode =>
    c.is_delete ? (
      <Popconfirm
        title="恢复评价"
        description="恢复后该评价重新显示并计入评分，确定恢复吗？"
        okText="恢复"
        cancelText="取 消"
        onConfirm={() => toggle(c)}
      >
        <Button size="small" type="link" icon={<EyeOutlined />} loading={busyId === c.id}>
          恢复
        </Button>
      </Popconfirm>
    ) : (
      <Popconfirm
        title="隐藏评价"
        description="隐藏后该评价不再显示，也不计入评分，可随时恢复。确定隐藏吗？"
        okText="隐藏"
        okButtonProps={{ danger: true }}
        cancelText="取 消"
        onConfirm={() => toggle(c)}
      >
        <Button size="small" type="link" danger icon={<EyeInvisibleOutlined />} loading={busyId === c.id}>
          隐藏
        </Button>
      </Popconfirm>
    );

  const columns: TableColumnsType<CommentRow> = [
    { title: '时间', dataIndex: 'created_at', width: 170 },
    { title: '厕所', dataIndex: 'toilet_name', width: 150, ellipsis: true, render: (v: string) => v || '—' },
    {
      title: '星级',
      key: 'stars',
      width: 170,
      sorter: true,
      sortOrder: sort === 'star_asc' ? 'ascend' : sort === 'star_desc' ? 'descend' : null,
      render: (_, c) => <Stars value={c.star_level} />,
    },
    { title: '问题', key: 'flags', width: 170, render: (_, c) => <FlagTags comment={c} /> },
    { title: '内容', key: 'content', render: (_, c) => <Content comment={c} /> },
    { title: '来源', key: 'source', width: 150, ellipsis: true, render: (_, c) => sourceText(c) },
    { title: '操作', key: 'actions', width: 90, fixed: 'right', render: (_, c) => action(c) },
  ];

  // Paging goes through the pager (pagination.onChange); this only follows the stars sorter.
  const onTableChange: TableProps<CommentRow>['onChange'] = (_pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const next: CommentSort =
      s?.order === 'ascend' ? 'star_asc' : s?.order === 'descend' ? 'star_desc' : 'time';
    if (next !== sort) {
      setSort(next);
      pager.reset();
    }
  };

  const rows = comments.data?.list ?? [];
  const total = comments.data?.total ?? 0;
  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={isFiltered(applied.filters) ? '没有符合条件的评价' : '暂无评价'}
    />
  );

  const s = stats.data;
  const summary = s && (
    <Flex wrap gap={mobile ? 8 : 24} align="center" style={{ marginBottom: 12 }} aria-label="评价统计">
      <span>
        共 <Typography.Text strong>{s.count}</Typography.Text> 条
      </span>
      <span>
        平均 <Typography.Text strong>{s.count ? s.average.toFixed(2) : '—'}</Typography.Text> 星
      </span>
      {COMMENT_FLAG_KEYS.map((k) => (
        <span key={k}>
          {COMMENT_FLAGS[k]} <Typography.Text strong>{s.flags[k]}</Typography.Text>
        </span>
      ))}
    </Flex>
  );

  const card = (c: CommentRow) => (
    <Card
      key={c.id}
      size="small"
      title={c.toilet_name || '—'}
      extra={<Typography.Text type="secondary">{c.created_at}</Typography.Text>}
      styles={{ body: { paddingBottom: 4 } }}
    >
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'stars', label: '星级', children: <Stars value={c.star_level} /> },
          { key: 'flags', label: '问题', children: <FlagTags comment={c} /> },
          { key: 'content', label: '内容', children: <Content comment={c} /> },
          { key: 'source', label: '来源', children: sourceText(c) },
        ]}
      />
      {action(c)}
    </Card>
  );

  const wide = (w: number) => ({ width: mobile ? '100%' : w });
  return (
    <Card styles={{ body: { padding: mobile ? 12 : 24 } }}>
      <Flex wrap gap="small" style={{ marginBottom: 12 }}>
        <ToiletPicker
          value={draft.toilet}
          onChange={(toilet) => setDraft({ ...draft, toilet })}
          style={wide(200)}
        />
        <Select<number[]>
          mode="multiple"
          value={draft.stars}
          onChange={(stars) => setDraft({ ...draft, stars })}
          options={STAR_OPTIONS}
          placeholder="星级"
          aria-label="星级"
          allowClear
          maxTagCount="responsive"
          style={wide(180)}
        />
        <Select<string[]>
          mode="multiple"
          value={draft.flags}
          onChange={(flags) => setDraft({ ...draft, flags: flags as CommentFilters['flags'] })}
          options={FLAG_OPTIONS}
          placeholder="问题（任一）"
          aria-label="问题"
          allowClear
          maxTagCount="responsive"
          style={wide(200)}
        />
        <Select<CommentSource>
          value={draft.source ?? undefined}
          onChange={(source) => setDraft({ ...draft, source: source ?? null })}
          options={SOURCE_OPTIONS}
          placeholder="来源"
          aria-label="来源"
          allowClear
          style={wide(110)}
        />
        {mobile ? (
          <Flex gap="small" style={{ width: '100%' }}>
            <DatePicker
              value={draft.range?.[0] ?? null}
              onChange={(day) =>
                setDraft({ ...draft, range: [day?.startOf('day') ?? null, draft.range?.[1] ?? null] })
              }
              placeholder="开始日期"
              inputReadOnly
              style={{ flex: 1 }}
            />
            <DatePicker
              value={draft.range?.[1] ?? null}
              onChange={(day) =>
                setDraft({ ...draft, range: [draft.range?.[0] ?? null, day?.endOf('day') ?? null] })
              }
              placeholder="结束日期"
              inputReadOnly
              style={{ flex: 1 }}
            />
          </Flex>
        ) : (
          <DatePicker.RangePicker
            value={draft.range}
            onChange={(range) => setDraft({ ...draft, range })}
            showTime={{ defaultOpenValue: [dayjs().startOf('day'), dayjs().endOf('day')] }}
            format={SERVER_TIME}
            placeholder={['开始时间', '结束时间']}
            presets={[
              { label: '今天', value: [dayjs().startOf('day'), dayjs().endOf('day')] },
              {
                label: '最近 7 天',
                value: [dayjs().subtract(6, 'day').startOf('day'), dayjs().endOf('day')],
              },
              {
                label: '最近 30 天',
                value: [dayjs().subtract(29, 'day').startOf('day'), dayjs().endOf('day')],
              },
            ]}
            style={{ width: 380 }}
          />
        )}
        <Input
          value={draft.keywords}
          onChange={(e) => setDraft({ ...draft, keywords: e.target.value })}
          onPressEnter={() => apply(draft)}
          allowClear
          maxLength={100}
          placeholder="评价内容关键字"
          aria-label="关键字"
          style={wide(180)}
        />
        <Checkbox
          checked={draft.showHidden}
          onChange={(e) => setDraft({ ...draft, showHidden: e.target.checked })}
          style={{ alignSelf: 'center' }}
        >
          显示已隐藏
        </Checkbox>
        <Button type="primary" icon={<SearchOutlined />} onClick={() => apply(draft)}>
          查询
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            setDraft(NO_FILTERS);
            apply(NO_FILTERS);
          }}
        >
          重置
        </Button>
        <Button
          icon={<SyncOutlined />}
          onClick={refresh}
          loading={comments.isFetching && !comments.isLoading}
        >
          刷新
        </Button>
        <Button
          icon={<DownloadOutlined />}
          onClick={() => void exportAll()}
          loading={exporting}
          style={{ marginInlineStart: mobile ? 0 : 'auto' }}
        >
          导出
        </Button>
      </Flex>

      {fresh > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={`有 ${fresh} 条新评价`}
          action={
            <Button size="small" type="link" onClick={refresh}>
              刷新查看
            </Button>
          }
        />
      )}
      {summary}

      {mobile ? (
        <Spin spinning={comments.isFetching}>
          <Flex vertical gap="small" style={{ minHeight: 120 }}>
            {rows.length === 0 ? empty : rows.map(card)}
            {total > 0 && (
              <Pagination {...pager.pagination(total)} size="small" showQuickJumper={false} align="end" />
            )}
          </Flex>
        </Spin>
      ) : (
        <Table<CommentRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={comments.isFetching}
          locale={{ emptyText: empty }}
          scroll={{ x: 1100 }}
          pagination={pager.pagination(total)}
          onChange={onTableChange}
        />
      )}
    </Card>
  );
}
