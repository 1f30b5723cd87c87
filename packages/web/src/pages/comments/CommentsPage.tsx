import { DownloadOutlined, EyeInvisibleOutlined, EyeOutlined, SyncOutlined } from '@ant-design/icons';
import { COMMENT_FLAG_KEYS, COMMENT_FLAGS, COMMENT_LEVELS, type CommentRow, formatStars } from '@se/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Rate, Tag, Typography, type TableProps } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { commentStats, listComments, setCommentHidden } from '../../api/comments.ts';
import { startExport } from '../../api/downloads.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import {
  ConfirmButton,
  ListCard,
  ListTable,
  ListToolbar,
  check,
  dateRange,
  multiSelect,
  select,
  text,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { loadNotification, TOAST_TITLES } from '../../components/toast.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { useLiveChannel } from '../../live/socket.ts';
import {
  FLAG_OPTIONS,
  SOURCE_OPTIONS,
  STAR_OPTIONS,
  commentQuery,
  flagWords,
  isFiltered,
  sourceText,
  type CommentFilters,
  type CommentSort,
} from './comment-filter.ts';
import { ToiletLink } from '../../components/ObjectLinks.tsx';
import { toiletFilter } from './ToiletPicker.tsx';

export const commentsKey = ['comments'] as const;
const COMMENTS_CHANNEL = { channel: 'comments' } as const;

const FILTERS: FilterFields<CommentFilters & { sort: CommentSort }> = {
  toilet: toiletFilter,
  stars: multiSelect({ options: STAR_OPTIONS, placeholder: '星级', width: 180 }),
  flags: multiSelect({ options: FLAG_OPTIONS, placeholder: '问题（任一）', label: '问题', width: 200 }),
  source: select({ options: SOURCE_OPTIONS, placeholder: '来源', width: 110 }),
  range: dateRange({ time: true }),
  keywords: text({ placeholder: '评价内容关键字', label: '关键字', width: 180 }),
  showHidden: check({ label: '显示已隐藏' }),
  // Set by the 星级 column's sorter, not an input.
  sort: {
    initial: 'time',
    encode: (s) => (s === 'time' ? undefined : s),
    decode: (s) => (s === 'star_asc' || s === 'star_desc' ? s : 'time'),
  },
};

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
  const list = useListQuery({
    key: commentsKey,
    filters: FILTERS,
    load: (f, paging) => listComments({ ...commentQuery(f, f.sort), ...paging }),
  });
  const [busyId, setBusyId] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);
  const [fresh, setFresh] = useState(0);

  const { sort } = list.applied;
  const query = { ...commentQuery(list.applied), sort: undefined };
  const stats = useQuery({
    queryKey: [...commentsKey, 'stats', query],
    queryFn: () => loadOrThrow(() => commentStats(query)),
    placeholderData: keepPreviousData,
  });

  const refresh = () => {
    setFresh(0);
    list.refresh();
  };
  // New reviews announce themselves; the list moves only when the operator asks.
  const onPush = useCallback(
    (data: unknown) => setFresh((n) => n + (Array.isArray(data) ? data.length : 1)),
    [],
  );
  useLiveChannel(COMMENTS_CHANNEL, onPush);
  useEffect(() => setFresh(0), [list.search]);

  const toggle = async (c: CommentRow) => {
    setBusyId(c.id);
    const hide = !c.is_delete;
    const outcome = await attempt(() => setCommentHidden(c.id, hide), hide ? '评价已隐藏' : '评价已恢复');
    setBusyId(null);
    if (outcome.ok) list.refresh();
  };

  const exportAll = async () => {
    setExporting(true);
    const outcome = await attempt(() => startExport('comments', query));
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

  const action = (c: CommentRow) =>
    c.is_delete ? (
      <ConfirmButton
        title="恢复评价"
        description="恢复后该评价重新显示并计入评分，确定恢复吗？"
        okText="恢复"
        danger={false}
        icon={<EyeOutlined />}
        loading={busyId === c.id}
        onConfirm={() => toggle(c)}
      >
        恢复
      </ConfirmButton>
    ) : (
      <ConfirmButton
        title="隐藏评价"
        description="隐藏后该评价不再显示，也不计入评分，可随时恢复。确定隐藏吗？"
        okText="隐藏"
        icon={<EyeInvisibleOutlined />}
        loading={busyId === c.id}
        onConfirm={() => toggle(c)}
      >
        隐藏
      </ConfirmButton>
    );

  const columns: ListColumn<CommentRow>[] = [
    { title: '时间', dataIndex: 'created_at', width: 160, card: false },
    {
      title: '厕所',
      dataIndex: 'toilet_name',
      width: 140,
      ellipsis: true,
      card: false,
      render: (v: string, c) => <ToiletLink id={c.toilet_id} name={v} />,
    },
    {
      title: '星级',
      key: 'stars',
      width: 170,
      sorter: true,
      sortOrder: sort === 'star_asc' ? 'ascend' : sort === 'star_desc' ? 'descend' : null,
      render: (_, c) => <Stars value={c.star_level} />,
    },
    { title: '问题', key: 'flags', width: 150, render: (_, c) => <FlagTags comment={c} /> },
    { title: '内容', key: 'content', render: (_, c) => <Content comment={c} /> },
    { title: '来源', key: 'source', width: 120, ellipsis: true, render: (_, c) => sourceText(c) },
  ];

  // Paging goes through the list; this only follows the stars sorter.
  const onSort: TableProps<CommentRow>['onChange'] = (_pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const next: CommentSort =
      s?.order === 'ascend' ? 'star_asc' : s?.order === 'descend' ? 'star_desc' : 'time';
    if (next !== sort) list.apply({ sort: next });
  };

  const s = stats.data;
  const summary = s && (
    <Flex wrap gap={mobile ? 8 : 24} align="center" style={{ marginBottom: 12 }} aria-label="评价统计">
      <span>
        共 <Typography.Text strong>{s.count}</Typography.Text> 条
      </span>
      <span>
        平均 <Typography.Text strong>{s.count ? formatStars(s.average) : '—'}</Typography.Text> 星
      </span>
      {COMMENT_FLAG_KEYS.map((k) => (
        <span key={k}>
          {COMMENT_FLAGS[k]} <Typography.Text strong>{s.flags[k]}</Typography.Text>
        </span>
      ))}
    </Flex>
  );

  return (
    <ListCard>
      <ListToolbar
        list={list}
        extra={
          <Button
            icon={<SyncOutlined />}
            onClick={refresh}
            loading={list.query.isFetching && !list.query.isLoading}
          >
            刷新
          </Button>
        }
        actions={
          <Button icon={<DownloadOutlined />} onClick={() => void exportAll()} loading={exporting}>
            导出
          </Button>
        }
      />
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
      <ListTable
        list={list}
        columns={columns}
        rowKey="id"
        empty={isFiltered(list.applied) ? '没有符合条件的评价' : '暂无评价'}
        actions={action}
        actionsWidth={90}
        cardTitle={(c) => <ToiletLink id={c.toilet_id} name={c.toilet_name} />}
        cardExtra={(c) => <Typography.Text type="secondary">{c.created_at}</Typography.Text>}
        onSort={onSort}
      />
    </ListCard>
  );
}
