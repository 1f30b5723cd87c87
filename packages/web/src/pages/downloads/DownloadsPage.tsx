import { DeleteOutlined, DownloadOutlined, LineChartOutlined, ReloadOutlined } from '@ant-design/icons';
import { DOWNLOAD_KEEP_DAYS, type DownloadPage, type DownloadRow } from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Flex,
  Popconfirm,
  Progress,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { deleteDownload, downloadLink, listDownloads, openFileLink } from '../../api/downloads.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { usePager } from '../../components/pager.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { usePageClamp } from '../devices/use-page-clamp.ts';
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

/**
 * 下载中心 (/download): the caller's exports — each a background job — with progress, and
 * their files for DOWNLOAD_KEEP_DAYS days.
 */
export default function DownloadsPage() {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const pager = usePager();
  const [fetching, setFetching] = useState<number | null>(null);
  const [telemetry, setTelemetry] = useState(false);

  const jobs = useQuery({
    queryKey: [...downloadsKey, pager.page, pager.pageSize],
    queryFn: () => loadOrThrow(() => listDownloads({ page: pager.page, page_size: pager.pageSize })),
    placeholderData: keepPreviousData,
    // Polls only while something is being made; react-query drops the timer on unmount.
    refetchInterval: (query) => ((query.state.data as DownloadPage | undefined)?.active ? POLL_MS : false),
  });
  usePageClamp(pager, jobs.data);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: downloadsKey });

  const download = async (row: DownloadRow) => {
    setFetching(row.id);
    const outcome = await attempt(() => downloadLink(row.id));
    setFetching(null);
    if (outcome.ok) openFileLink(outcome.data.url);
    else refresh();
  };

  const remove = async (row: DownloadRow) => {
    const outcome = await attempt(() => deleteDownload(row.id), '已删除');
    if (outcome.ok) refresh();
  };

  const columns: TableColumnsType<DownloadRow> = [
    {
      title: '文件',
      key: 'file',
      width: 200,
      render: (_, row) => (
        <Flex vertical>
          <Typography.Text strong>{row.label}</Typography.Text>
          {row.file_name && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis={{ tooltip: row.file_name }}>
              {row.file_name}
            </Typography.Text>
          )}
        </Flex>
      ),
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
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (_, row) => <Tag color={STATUS_COLORS[row.status]}>{statusLabel(row.status)}</Tag>,
    },
    { title: '进度', key: 'progress', width: 160, render: (_, row) => <ProgressCell row={row} /> },
    { title: '大小', dataIndex: 'size', width: 90, align: 'right', render: sizeText },
    { title: '创建时间', dataIndex: 'created_at', width: 170 },
    { title: '有效期', key: 'keep', width: 110, render: (_, row) => keepText(row) },
    {
      title: '操作',
      key: 'actions',
      width: 150,
      fixed: mobile ? undefined : 'right',
      render: (_, row) => (
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
          <Popconfirm
            title="删除导出文件"
            description={
              isActive(row)
                ? `“${row.label}”还在导出，删除后将停止导出。确定删除吗？`
                : `确定删除“${row.label}”吗？`
            }
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取 消"
            onConfirm={() => remove(row)}
          >
            <Button size="small" type="link" danger icon={<DeleteOutlined />}>
              删除
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  const rows = jobs.data?.list ?? [];
  const total = jobs.data?.total ?? 0;

  return (
    <Card styles={{ body: { padding: mobile ? 12 : 24 } }}>
      <Flex wrap gap="small" align="center" style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">
          导出在后台进行，完成后可在此下载；文件保留 {DOWNLOAD_KEEP_DAYS} 天。
        </Typography.Text>
        <Flex gap="small" style={{ marginInlineStart: mobile ? 0 : 'auto' }}>
          <Button icon={<LineChartOutlined />} onClick={() => setTelemetry(true)}>
            导出历史数据
          </Button>
          <Button icon={<ReloadOutlined />} onClick={refresh} loading={jobs.isFetching && !jobs.isPending}>
            刷新
          </Button>
        </Flex>
      </Flex>
      <Table<DownloadRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={jobs.isPending}
        locale={{
          emptyText: jobs.isError ? (
            <Typography.Text type="danger">加载失败</Typography.Text>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无导出文件" />
          ),
        }}
        scroll={{ x: 1130 }}
        pagination={pager.pagination(total)}
      />
      {telemetry && (
        <TelemetryExportDialog
          onStarted={() => {
            setTelemetry(false);
            refresh();
          }}
          onClosed={() => setTelemetry(false)}
        />
      )}
    </Card>
  );
}
