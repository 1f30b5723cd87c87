import { EditOutlined, UserAddOutlined } from '@ant-design/icons';
import { DEVICE_KINDS, isManager, type DeviceKind, type DeviceRow } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Flex, Tabs, type TabsProps } from 'antd';
import { useState } from 'react';
import { getDevice } from '../../api/devices.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { useSession } from '../../session/store.ts';
import { AssignDialog } from './AssignDialog.tsx';
import { CommandsTab } from './CommandsTab.tsx';
import { LiveTab } from './LiveTab.tsx';
import { ConfigEditor } from './ConfigEditor.tsx';
import { DeviceInfo } from './DeviceInfo.tsx';
import { features } from './device-text.ts';
import { loadOrThrow } from '../../components/feedback.ts';
import { ParameterTab } from './ParameterTab.tsx';
import { SensorsTab } from './SensorsTab.tsx';
import { TerminalPunches } from '../attendance/TerminalPunches.tsx';
import { UsageTab } from '../meters/UsageTab.tsx';

export const deviceKey = (kind: DeviceKind, id: number) => ['devices', kind, 'one', id] as const;

/** The device's latest state: the list row at first, then fresh (parameter_num changes on apply). */
export function useDevice(kind: DeviceKind, row: DeviceRow) {
  return useQuery({
    queryKey: deviceKey(kind, row.id),
    queryFn: () => loadOrThrow(() => getDevice(kind, row.id)),
    initialData: row,
    // The row may be minutes old; fetch once the drawer shows it.
    initialDataUpdatedAt: 0,
  });
}

export type TabKey = 'live' | 'info' | 'config' | 'parameters' | 'commands' | 'sensors' | 'punches' | 'usage';

/** Devices that measure the room open on 实时数据; the others on 基本信息. */
export const defaultTab = (kind: string): TabKey =>
  kind === 'gateway' || kind === 'jwb' || kind === 'sensor' ? 'live' : 'info';

/** 详情: a device's live data, fields and, by kind, its config, parameters, commands and sensors. */
export function DeviceDrawer({
  kind,
  device,
  onClose,
  onEdit,
  tab,
}: {
  kind: DeviceKind;
  device: DeviceRow | null;
  onClose: () => void;
  onEdit: (device: DeviceRow) => void;
  /** The tab it opens on (a link to a gateway's sensor: 传感器); the kind's first unless told. */
  tab?: TabKey;
}) {
  const mobile = useIsMobile();
  // Managers bind devices to the users under them (the same right as 用户管理's 绑定设备).
  const canAssign = isManager(useSession((s) => s.permission));
  const [assigning, setAssigning] = useState(false);
  return (
    <Drawer
      open={device !== null}
      onClose={onClose}
      size={mobile ? '100%' : 720}
      title={device ? `${DEVICE_KINDS[kind].label} ${device.ser_num}` : ''}
      extra={
        device && (
          <Flex gap={8}>
            {canAssign && (
              <Button icon={<UserAddOutlined />} onClick={() => setAssigning(true)}>
                分配
              </Button>
            )}
            <Button icon={<EditOutlined />} onClick={() => onEdit(device)}>
              编辑
            </Button>
          </Flex>
        )
      }
      destroyOnHidden
    >
      {/* Keyed by device: another device starts again on its first tab with nothing of the last one. */}
      {device && <DrawerBody key={device.id} kind={kind} row={device} tab={tab} />}
      {device && assigning && <Assign kind={kind} row={device} onClosed={() => setAssigning(false)} />}
    </Drawer>
  );
}

/** 分配 on the drawer's fresh answer: it names the accounts the device is bound to by id. */
function Assign({ kind, row, onClosed }: { kind: DeviceKind; row: DeviceRow; onClosed: () => void }) {
  const device = useDevice(kind, row).data;
  return <AssignDialog kind={kind} device={device} onSaved={() => {}} onClosed={onClosed} />;
}

function DrawerBody({ kind, row, tab: first }: { kind: DeviceKind; row: DeviceRow; tab?: TabKey }) {
  const [tab, setTab] = useState<TabKey>(() => first ?? defaultTab(kind));
  const f = features(kind);
  const device = useDevice(kind, row).data;

  const live = {
    key: 'live',
    label: '实时数据',
    children: <LiveTab device={device} queryKey={deviceKey(kind, row.id)} />,
  };
  const info = { key: 'info', label: '基本信息', children: <DeviceInfo kind={kind} device={device} /> };
  const items: TabsProps['items'] = defaultTab(kind) === 'live' ? [live, info] : [info, live];
  if (f.dispenser) {
    items.push(
      { key: 'config', label: '配置', children: <ConfigEditor dispenserId={device.id} /> },
      { key: 'parameters', label: '参数', children: <ParameterTab device={device} /> },
    );
  }
  if (f.terminal) {
    items.push({ key: 'punches', label: '打卡记录', children: <TerminalPunches terminalId={device.id} /> });
  }
  if (f.meter) items.push({ key: 'usage', label: '用量', children: <UsageTab device={device} /> });
  items.push({ key: 'commands', label: '指令', children: <CommandsTab kind={kind} device={device} /> });
  if (f.gateway) {
    items.push({ key: 'sensors', label: '传感器', children: <SensorsTab gatewayId={device.id} /> });
  }

  // Tabs mount on first view only, so a drawer opened for its basic info fetches nothing else.
  return <Tabs activeKey={tab} onChange={(k) => setTab(k as TabKey)} items={items} destroyOnHidden={false} />;
}
