import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  EyeOutlined,
  PlusOutlined,
  ReloadOutlined,
  SearchOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { DEVICE_KINDS, GATEWAY_TYPES, type DeviceKind, type DeviceRow, type Page } from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Input,
  Pagination,
  Popconfirm,
  Select,
  Spin,
  Table,
  Typography,
  type DescriptionsProps,
  type TableColumnsType,
} from 'antd';
import { useState, type ReactNode } from 'react';
import { deleteDevice, listDevices, restoreDevice, type DeviceFilter } from '../../api/devices.ts';
import { toastWithAction } from '../../components/toast.ts';
import { usePager } from '../../components/pager.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { isDevicePush, patchDevicePage } from '../../live/device-push.ts';
import { useLiveChannel } from '../../live/socket.ts';
import { LastReport, OnlineTag, SerNum, WarningTags } from './DeviceBits.tsx';
import { DeviceDrawer } from './DeviceDrawer.tsx';
import { DeviceFormDialog, type DeviceDialogTarget } from './DeviceFormDialog.tsx';
import {
  dash,
  features,
  gatewayTypeLabel,
  readingText,
  statusBits,
  type OnlineChoice,
} from './device-text.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { ImportDialog } from './ImportDialog.tsx';
import { queueExport, useGoTo } from '../downloads/export-toast.tsx';
import { useNow } from './use-now.ts';
import { usePageClamp } from './use-page-clamp.ts';

interface Search {
  keywords: string;
  online: OnlineChoice;
  /** Gateways only; undefined = 不限. */
  type: number | undefined;
}

const NO_SEARCH: Search = { keywords: '', online: 'all', type: undefined };

const isBlank = (s: Search) => !s.keywords && s.online === 'all' && s.type === undefined;

const ONLINE_OPTIONS: { value: OnlineChoice; label: string }[] = [
  { value: 'all', label: '全部' },
  { value: 'online', label: '在线' },
  { value: 'offline', label: '离线' },
];

const TYPE_OPTIONS = [
  { value: 0, label: '不限' },
  ...GATEWAY_TYPES.map((t) => ({ value: t.value as number, label: t.label })),
];

/** The list's filters as query parameters (also what 导出 exports). */
const filterOf = (kind: DeviceKind, s: Search): DeviceFilter => ({
  keywords: s.keywords || undefined,
  status: statusBits(s.online),
  type: features(kind).gateway ? s.type : undefined,
});

export const deviceListKey = (kind: DeviceKind) => ['devices', kind] as const;
const pagesKey = (kind: DeviceKind) => [...deviceListKey(kind), 'list'] as const;

/**
 * The 'devices' channel of a kind: each report's time, online state and warning go into
 * the cached pages in place, so the rows stay current without fetching the list again.
 */
function useLiveRows(kind: DeviceKind) {
  const queryClient = useQueryClient();
  useLiveChannel(
    { channel: 'devices', kind },
    (data) => {
      if (!isDevicePush(data)) return;
      queryClient.setQueriesData<Page<DeviceRow>>({ queryKey: pagesKey(kind) }, (page) =>
        patchDevicePage(page, data),
      );
    },
    {
      // Back after a reconnect: what changed meanwhile came as pushes nobody received.
      onSubscribed: ({ first }) => {
        if (!first) void queryClient.invalidateQueries({ queryKey: pagesKey(kind) });
      },
    },
  );
}

/**
 * The device registry of one kind (SPEC §2 /equipments, /evaluates, /gateways, meters and
 * paper machines, and the 网关 tab of the smart-toilet screen): search, table (cards on
 * mobile), registration, import/export, and the detail drawer.
 */
export function DeviceList({ kind }: { kind: DeviceKind }) {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const now = useNow();
  const pager = usePager();
  const f = features(kind);
  const label = DEVICE_KINDS[kind].label;
  const [draft, setDraft] = useState<Search>(NO_SEARCH);
  // seq makes 查询 fetch again even when the search did not change.
  const [applied, setApplied] = useState({ search: NO_SEARCH, seq: 0 });
  const [dialog, setDialog] = useState<DeviceDialogTarget | null>(null);
  const [detail, setDetail] = useState<DeviceRow | null>(null);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const goTo = useGoTo();

  useLiveRows(kind);
  const devices = useQuery({
    queryKey: [...pagesKey(kind), applied, pager.page, pager.pageSize],
    queryFn: () =>
      loadOrThrow(() =>
        listDevices(kind, { ...filterOf(kind, applied.search), page: pager.page, page_size: pager.pageSize }),
      ),
    placeholderData: keepPreviousData,
  });
  usePageClamp(pager, devices.data);

  const apply = (search: Search) => {
    setApplied((a) => ({ search: { ...search, keywords: search.keywords.trim() }, seq: a.seq + 1 }));
    pager.reset();
  };

  const refresh = () => void queryClient.invalidateQueries({ queryKey: deviceListKey(kind) });

  const remove = async (device: DeviceRow) => {
    const outcome = await attempt(() => deleteDevice(kind, device.id));
    if (outcome.ok) {
      if (detail?.id === device.id) setDetail(null);
      refresh();
      // A delete is undone by restoring (update with is_delete false), as long as the toast shows.
      toastWithAction(`已删除 ${device.ser_num}`, '撤销', () => {
        void attempt(() => restoreDevice(kind, device.id), '已恢复').then((back) => {
          if (back.ok) refresh();
        });
      });
    }
  };

  // 导出 runs in the background: the file lands in 下载中心 (/download).
  const exportList = async () => {
    setExporting(true);
    await queueExport('devices', { kind, ...filterOf(kind, applied.search) }, goTo);
    setExporting(false);
  };

  const actions = (device: DeviceRow): ReactNode => (
    <Flex wrap={mobile} gap={0}>
      <Button size="small" type="link" icon={<EyeOutlined />} onClick={() => setDetail(device)}>
        详情
      </Button>
      <Button
        size="small"
        type="link"
        icon={<EditOutlined />}
        onClick={() => setDialog({ mode: 'edit', device })}
      >
        编辑
      </Button>
      <Popconfirm
        title={`删除${label}`}
        description={`确定删除 ${device.ser_num} 吗？删除后设备的数据不再上报到平台。`}
        okText="删除"
        okButtonProps={{ danger: true }}
        cancelText="取 消"
        onConfirm={() => remove(device)}
      >
        <Button size="small" type="link" danger icon={<DeleteOutlined />}>
          删除
        </Button>
      </Popconfirm>
    </Flex>
  );

  const columns: TableColumnsType<DeviceRow> = [
    {
      title: '序列号',
      dataIndex: 'ser_num',
      width: 170,
      fixed: 'left',
      render: (v: string) => <SerNum value={v} />,
    },
    // Description and place take what the other columns leave.
    { title: '描述', dataIndex: 'desc', ellipsis: true, render: dash },
    { title: '位置', dataIndex: 'location', ellipsis: true, render: dash },
    {
      title: '在线',
      dataIndex: 'online',
      width: 76,
      render: (online: boolean) => <OnlineTag online={online} />,
    },
    {
      title: '最后上报',
      dataIndex: 'time',
      width: 110,
      render: (time: number | null) => <LastReport time={time} now={now} />,
    },
  ];
  if (f.dispenser) {
    columns.push({
      title: '告警',
      dataIndex: 'warning',
      width: 150,
      render: (w: number) => <WarningTags warning={w} />,
    });
  }
  if (f.gateway) {
    columns.push({ title: '类型', dataIndex: 'type', width: 150, render: gatewayTypeLabel });
  }
  if (f.meter) {
    columns.push({
      title: '读数',
      dataIndex: 'reading',
      width: 120,
      align: 'right',
      render: (_, row) => readingText(row, kind),
    });
  }
  columns.push(
    { title: '绑定用户', dataIndex: 'owners', width: 140, ellipsis: true, render: dash },
    { title: '操作', key: 'actions', width: 200, fixed: 'right', render: (_, row) => actions(row) },
  );

  const rows = devices.data?.list ?? [];
  const total = devices.data?.total ?? 0;
  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={isBlank(applied.search) ? `暂无${label}，点击“登记设备”添加` : `没有符合条件的${label}`}
    />
  );

  const card = (device: DeviceRow) => {
    const items: DescriptionsProps['items'] = [
      { key: 'desc', label: '描述', children: dash(device.desc) },
      { key: 'location', label: '位置', children: dash(device.location) },
      { key: 'time', label: '最后上报', children: <LastReport time={device.time} now={now} /> },
    ];
    if (f.dispenser) {
      items.push({ key: 'warning', label: '告警', children: <WarningTags warning={device.warning} /> });
    }
    if (f.gateway) items.push({ key: 'type', label: '类型', children: gatewayTypeLabel(device.type) });
    if (f.meter) items.push({ key: 'reading', label: '读数', children: readingText(device, kind) });
    items.push({ key: 'owners', label: '绑定用户', children: dash(device.owners) });
    return (
      <Card
        key={device.id}
        size="small"
        title={<SerNum value={device.ser_num} />}
        extra={<OnlineTag online={device.online} />}
        styles={{ body: { paddingBottom: 4 } }}
      >
        <Descriptions size="small" column={1} items={items} />
        {actions(device)}
      </Card>
    );
  };

  return (
    <>
      <Flex wrap gap="small" style={{ marginBottom: 16 }}>
        <Input.Search
          value={draft.keywords}
          onChange={(e) => setDraft({ ...draft, keywords: e.target.value })}
          onSearch={(keywords) => apply({ ...draft, keywords })}
          allowClear
          maxLength={100}
          placeholder="序列号 / 描述 / 位置"
          aria-label="关键字"
          style={{ width: mobile ? '100%' : 240 }}
        />
        <Select<OnlineChoice>
          value={draft.online}
          onChange={(online) => setDraft({ ...draft, online })}
          options={ONLINE_OPTIONS}
          prefix="在线状态"
          aria-label="在线状态"
          style={{ width: mobile ? '100%' : 170 }}
        />
        {f.gateway && (
          <Select<number>
            value={draft.type ?? 0}
            onChange={(type) => setDraft({ ...draft, type: type || undefined })}
            options={TYPE_OPTIONS}
            prefix="类型"
            aria-label="类型"
            style={{ width: mobile ? '100%' : 220 }}
          />
        )}
        <Button type="primary" icon={<SearchOutlined />} onClick={() => apply(draft)}>
          查询
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            setDraft(NO_SEARCH);
            apply(NO_SEARCH);
          }}
        >
          重置
        </Button>
        <Flex wrap gap="small" style={{ marginInlineStart: mobile ? 0 : 'auto' }}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'add' })}>
            登记设备
          </Button>
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            导入
          </Button>
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportList()}>
            导出
          </Button>
        </Flex>
      </Flex>

      {mobile ? (
        <Spin spinning={devices.isFetching}>
          <Flex vertical gap="small" style={{ minHeight: 120 }}>
            {rows.length === 0 ? empty : rows.map(card)}
            {total > 0 && (
              <Pagination {...pager.pagination(total)} size="small" showQuickJumper={false} align="end" />
            )}
          </Flex>
        </Spin>
      ) : (
        <Table<DeviceRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={devices.isFetching}
          locale={{
            emptyText: devices.isError ? <Typography.Text type="danger">加载失败</Typography.Text> : empty,
          }}
          // The fixed widths plus room for 描述 and 位置; narrower screens scroll.
          scroll={{ x: columns.reduce((w, c) => w + (Number(c.width) || 120), 0) }}
          pagination={pager.pagination(total)}
        />
      )}

      {dialog && (
        <DeviceFormDialog
          key={dialog.mode === 'edit' ? dialog.device.id : 'add'}
          kind={kind}
          target={dialog}
          onSaved={(device) => {
            refresh();
            if (detail?.id === device.id) setDetail(device);
          }}
          onClosed={() => setDialog(null)}
        />
      )}
      <DeviceDrawer
        kind={kind}
        device={detail}
        onClose={() => setDetail(null)}
        onEdit={(device) => setDialog({ mode: 'edit', device })}
      />
      {importing && <ImportDialog kind={kind} onImported={refresh} onClosed={() => setImporting(false)} />}
    </>
  );
}
