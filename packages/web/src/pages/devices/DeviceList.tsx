import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { CODE, DEVICE_KINDS, type DeviceKind, type DevicePush, type DeviceRow, type Page } from '@se/core';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { deleteDevice, getDevice, getSensor, listDevices, restoreDevice } from '../../api/devices.ts';
import { attempt } from '../../components/feedback.ts';
import { DEVICE_PARAM, SENSOR_PARAM, idParam, useLinkedParam } from '../../components/object-links.ts';
import {
  ListView,
  RowActions,
  useDialog,
  useListQuery,
  type ListColumn,
} from '../../components/list/index.ts';
import { toastWithAction } from '../../components/toast.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { isDevicePush, patchDevicePageAll } from '../../live/device-push.ts';
import { usePushBatch } from '../../live/push-batch.ts';
import { useLiveChannel } from '../../live/socket.ts';
import { queueExport, useGoTo } from '../downloads/export-toast.tsx';
import { LastReport, OnlineTag, SerNum, WarningTags } from './DeviceBits.tsx';
import { DeviceDrawer, type TabKey } from './DeviceDrawer.tsx';
import { DeviceFormDialog, type DeviceDialogTarget } from './DeviceFormDialog.tsx';
import { dash, features, gatewayTypeLabel, readingText } from './device-text.ts';
import { filterOf, filtersOf } from './device-filters.ts';
import { ImportDialog } from './ImportDialog.tsx';
import { useNow } from './use-now.ts';

export const deviceListKey = (kind: DeviceKind) => ['devices', kind] as const;
const pagesKey = (kind: DeviceKind) => [...deviceListKey(kind), 'list'] as const;

/**
 * The 'devices' channel of a kind: each report's time, online state and warning go into
 * the cached pages in place, so the rows stay current without fetching the list again.
 */
function useLiveRows(kind: DeviceKind) {
  const queryClient = useQueryClient();
  // A busy fleet reports tens of times a second: the rows take the reports a few times a second.
  const batch = usePushBatch<DevicePush>((pushes) =>
    queryClient.setQueriesData<Page<DeviceRow>>({ queryKey: pagesKey(kind) }, (page) =>
      patchDevicePageAll(page, pushes),
    ),
  );
  useLiveChannel(
    { channel: 'devices', kind },
    (data) => {
      if (isDevicePush(data)) batch.add(data);
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
 * mobile), registration, import/export, and the detail drawer. `param` prefixes its URL
 * parameters when it shares a route with another list.
 */
export function DeviceList({ kind, param }: { kind: DeviceKind; param?: string }) {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const now = useNow();
  const f = features(kind);
  const label = DEVICE_KINDS[kind].label;
  const dialog = useDialog<DeviceDialogTarget>();
  const [detail, setDetail] = useState<DeviceRow | null>(null);
  const importing = useDialog();
  const [exporting, setExporting] = useState(false);
  const goTo = useGoTo();

  // A link to a device (?device=<id>, from an alarm, a toilet, a record …) opens its drawer.
  const [linked, clearLinked] = useLinkedParam(`${param ?? ''}${DEVICE_PARAM}`);
  const linkedId = idParam(linked);
  useEffect(() => {
    if (linkedId === null) return;
    let live = true;
    void attempt(() => getDevice(kind, linkedId)).then((got) => {
      if (!live) return;
      if (got.ok) setDetail(got.data);
      else clearLinked();
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the link changes
  }, [kind, linkedId]);
  // A link to a sensor (?sensor=<id>, on /gateways) opens its gateway on the 传感器 tab.
  const [sensorLink, clearSensor] = useLinkedParam(kind === 'gateway' ? `${param ?? ''}${SENSOR_PARAM}` : '');
  const sensorId = kind === 'gateway' ? idParam(sensorLink) : null;
  const [tab, setTab] = useState<TabKey | undefined>();
  useEffect(() => {
    if (sensorId === null) return;
    let live = true;
    void attempt(async () => {
      const sensor = await getSensor(sensorId);
      if (sensor.code !== CODE.ok) return sensor;
      if (sensor.data.gateway_id === null)
        return { ...sensor, code: CODE.notFound, message: '该传感器未接入网关' };
      return getDevice('gateway', sensor.data.gateway_id);
    }).then((got) => {
      if (!live) return;
      if (got.ok) {
        setTab('sensors');
        setDetail(got.data);
      } else clearSensor();
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the link changes
  }, [sensorId]);
  const closeDetail = () => {
    setDetail(null);
    setTab(undefined);
    // One address change: a second one in the same event would start from the old address.
    if (sensorLink !== null) clearSensor();
    else clearLinked();
  };

  useLiveRows(kind);
  const list = useListQuery({
    key: pagesKey(kind),
    filters: filtersOf(kind),
    param,
    load: (search, paging) => listDevices(kind, { ...filterOf(kind, search), ...paging }),
  });

  const refresh = () => void queryClient.invalidateQueries({ queryKey: deviceListKey(kind) });

  // The row's buttons render once per row (liveRows): a delete reads the open drawer and its
  // close (which knows the current links) from here, never from the render that drew the row.
  const current = useRef({ detail, closeDetail });
  useEffect(() => {
    current.current = { detail, closeDetail };
  });
  const deleted = (device: DeviceRow) => {
    const open = current.current;
    if (open.detail?.id === device.id) open.closeDetail();
    refresh();
    // A delete is undone by restoring (update with is_delete false), as long as the toast shows.
    toastWithAction(`已删除 ${device.ser_num}`, '撤销', () => {
      void attempt(() => restoreDevice(kind, device.id), '已恢复').then((back) => {
        if (back.ok) refresh();
      });
    });
  };

  // 导出 runs in the background: the file lands in 下载中心 (/download).
  const exportList = async () => {
    setExporting(true);
    await queueExport('devices', { kind, ...filterOf(kind, list.applied) }, goTo);
    setExporting(false);
  };

  const actions = (device: DeviceRow) => (
    <RowActions
      wrap={mobile}
      detail={() => setDetail(device)}
      edit={() => dialog.open({ mode: 'edit', device })}
      remove={{
        title: `删除${label}`,
        question: `确定删除 ${device.ser_num} 吗？删除后设备的数据不再上报到平台。`,
        call: () => deleteDevice(kind, device.id),
        done: false,
        onDeleted: () => deleted(device),
      }}
    />
  );

  const columns: ListColumn<DeviceRow>[] = [
    {
      title: '序列号',
      dataIndex: 'ser_num',
      width: 160,
      fixed: 'left',
      render: (v: string) => <SerNum value={v} />,
      card: false,
    },
    // Narrower layouts keep what changes (online, last report, alarm) and fold the texts.
    { title: '描述', dataIndex: 'desc', width: 160, ellipsis: true, from: 'lg', render: dash },
    { title: '位置', dataIndex: 'location', width: 150, ellipsis: true, from: 'lg', render: dash },
    {
      title: '在线',
      dataIndex: 'online',
      width: 76,
      render: (online: boolean) => <OnlineTag online={online} />,
      card: false,
    },
    {
      title: '最后上报',
      dataIndex: 'time',
      width: 110,
      render: (time: number | null) => <LastReport time={time} now={now} />,
    },
  ];
  if (f.dispenser || f.paper) {
    columns.push({
      title: '告警',
      dataIndex: 'warning',
      width: 150,
      render: (w: number) => <WarningTags warning={w} kind={kind} />,
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
  columns.push({
    title: '绑定用户',
    dataIndex: 'owners',
    width: 140,
    ellipsis: true,
    from: 'xl',
    render: dash,
  });

  return (
    <>
      <ListView
        list={list}
        add={{ label: '登记设备', onClick: () => dialog.open({ mode: 'add' }) }}
        listActions={
          <>
            <Button icon={<UploadOutlined />} onClick={() => importing.open(true)}>
              导入
            </Button>
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportList()}>
              导出
            </Button>
          </>
        }
        columns={columns}
        rowKey="id"
        empty={list.filtered ? `没有符合条件的${label}` : `暂无${label}，点击“登记设备”添加`}
        actions={actions}
        actionsWidth={200}
        liveRows={[now, mobile, kind]}
        cardTitle={(device) => <SerNum value={device.ser_num} />}
        cardExtra={(device) => <OnlineTag online={device.online} />}
      />
      {dialog.target && (
        <DeviceFormDialog
          key={dialog.target.mode === 'edit' ? dialog.target.device.id : 'add'}
          kind={kind}
          target={dialog.target}
          onSaved={(device) => {
            refresh();
            if (detail?.id === device.id) setDetail(device);
          }}
          onClosed={dialog.close}
        />
      )}
      <DeviceDrawer
        kind={kind}
        device={detail}
        tab={tab}
        onClose={closeDetail}
        onEdit={(device) => dialog.open({ mode: 'edit', device })}
      />
      {importing.target && <ImportDialog kind={kind} onImported={refresh} onClosed={importing.close} />}
    </>
  );
}
