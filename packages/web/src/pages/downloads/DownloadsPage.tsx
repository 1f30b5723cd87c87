import { DownloadOutlined, LineChartOutlined, ReloadOutlined } from '@ant-design/icons';
import { DOWNLOAD_KEEP_DAYS, type DownloadRow } from '@se/core';
import { Button, Flex, Progress, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { deleteDownload, downloadLink, listDownloads, openFileLink } from '../../api/downloads.ts';
import { attempt } from '../../components/feedback.ts';
import {
  DeleteButton,
  ListCard,
  ListView,
  NO_FILTERS,
  useDialog,
  useListQuery,
  type ListColumn,
} from '../../components/list/index.ts';
import {
  STATUS_COLORS,
  isActive,
  keepText,
  percentOf,
  rowsText,
  sizeText,
  statusLabel,
} from './download-text.ts';
import { TelemetryExportDialog } from './TelemetryExportDialog.tsx';

/** While any job is queued or running the list is fetched again this often. */
export const POLL_MS = 2000;

export const downloadsKey = ['downloads'] as const;

const FileCell = ({ row }: { row: DownloadRow }) => (
  <Flex vertical>
    <Typography.Text strong>{row.label}</Typography.Text>
    {row.file_name && (
      <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis={{ tooltip: row.file_name }}>
        {row.file_name}
      </Typography.Text>
    )}
  </Flex>
);

const StatusTag = ({ row }: { row: DownloadRow }) => (
  <Tag color={STATUS_COLORS[row.status]}>{statusLabel(row.status)}</Tag>
);

function ProgressCell({ row }: { row: DownloadRow }) {
  if (row.status === 'failed') {
    return (
      <Typography.Text type="danger" style={{ fontSize: 12 }}>
        {row.error || '导出失败'}
      </Typography.Text>
    );
  }
  if (row.status === 'expired') return <Typography.Text type="secondary">文件已删除</Typography.Text>;
  const percent = percentOf(row);
  return (
    <div style={{ minWidth: 120 }}>
      {row.status === 'queued' ? (
        <Typography.Text type="secondary">等待开始</Typography.Text>
      ) : (
        <Progress
          percent={percent ?? 0}
          size="small"
          status={row.status === 'done' ? 'success' : 'active'}
          showInfo={percent !== null}
          aria-label={`进度 ${percent ?? 0}%`}
        />
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {rowsText(row)}
      </Typography.Text>
    </div>
  );
}

const COLUMNS: ListColumn<DownloadRow>[] = [
  {
    title: '文件',
    key: 'file',
    width: 200,
    card: false,
    render: (_, row) => <FileCell row={row} />,
  },
  {
    title: '筛选条件',
    dataIndex: 'summary',
    width: 200,
    ellipsis: { showTitle: false },
    render: (s: string) => (
      <Tooltip title={s} placement="topLeft">
        {s || '全部'}
      </Tooltip>
    ),
  },
  { title: '状态', dataIndex: 'status', width: 90, card: false, render: (_, row) => <StatusTag row={row} /> },
  { title: '进度', key: 'progress', width: 160, render: (_, row) => <ProgressCell row={row} /> },
  { title: '大小', dataIndex: 'size', width: 90, align: 'right', render: sizeText },
  { title: '创建时间', dataIndex: 'created_at', width: 170, from: 'xl' },
  { title: '有效期', key: 'keep', width: 110, render: (_, row) => keepText(row) },
];

/**
 * 下载中心 (/download): the caller's exports — each a background job — with progress, and
 * their files for DOWNLOAD_KEEP_DAYS days.
 */
export default function DownloadsPage() {
  const [fetching, setFetching] = useState<number | null>(null);
  const telemetry = useDialog();
  const list = useListQuery({
    key: downloadsKey,
    filters: NO_FILTERS,
    load: (_, paging) => listDownloads(paging),
    // Polls only while something is being made; react-query drops the timer on unmount.
    refetchInterval: (data) => (data?.active ? POLL_MS : false),
  });

  const download = async (row: DownloadRow) => {
    setFetching(row.id);
    const outcome = await attempt(() => downloadLink(row.id));
    setFetching(null);
    if (outcome.ok) openFileLink(outcome.data.url);
    else list.refresh();
  };

  const remove = async (row: DownloadRow) => {
    const outcome = await attempt(() => deleteDownload(row.id), '已删除');
    if (outcome.ok) list.refresh();
  };

  const actions = (row: DownloadRow) => (
    <Flex gap={0}>
      <Button
        size="small"
        type="link"
        icon={<DownloadOutlined />}
        disabled={row.status !== 'done' || keepText(row) === '已过期'}
        loading={fetching === row.id}
        onClick={() => void download(row)}
      >
        下载
      </Button>
      <DeleteButton
        title="删除导出文件"
        description={
          isActive(row)
            ? `“${row.label}”还在导出，删除后将停止导出。确定删除吗？`
            : `确定删除“${row.label}”吗？`
        }
        onConfirm={() => remove(row)}
      />
    </Flex>
  );

  return (
    <ListCard>
      <ListView
        list={list}
        buttons={false}
        extra={
          <Typography.Text type="secondary">
            导出在后台进行，完成后可在此下载；文件保留 {DOWNLOAD_KEEP_DAYS} 天。
          </Typography.Text>
        }
        listActions={
          <>
            <Button icon={<LineChartOutlined />} onClick={() => telemetry.open(true)}>
              导出历史数据
            </Button>
            <Button
              icon={<ReloadOutlined />}
              onClick={list.refresh}
              loading={list.query.isFetching && !list.query.isPending}
            >
              刷新
            </Button>
          </>
        }
        columns={COLUMNS}
        rowKey="id"
        empty="暂无导出文件"
        loading={list.query.isPending}
        actions={actions}
        cardTitle={(row) => <FileCell row={row} />}
        cardExtra={(row) => <StatusTag row={row} />}
      />
      {telemetry.target && (
        <TelemetryExportDialog
          onStarted={() => {
            telemetry.close();
            list.refresh();
          }}
          onClosed={telemetry.close}
        />
      )}
    </ListCard>
  );
}
