import { DEVICE_KINDS, INDUSTRIAL_TYPES, formatDateTime, type DeviceKind, type DeviceRow } from '@se/core';
import { Descriptions, Flex, Typography, type DescriptionsProps } from 'antd';
import {
  DeviceLink,
  DeviceRecordsLink,
  PlaceLink,
  ToiletLink,
  UserLinks,
} from '../../components/ObjectLinks.tsx';
import { SecretToken } from '../../components/SecretToken.tsx';
import { useIsMobile } from '../../layout/viewport.ts';
import { HardwareInfo } from './HardwareInfo.tsx';
import { LastReport, OnlineTag, SerNum, WarningTags } from './DeviceBits.tsx';
import { coordText, dash, features, gatewayTypeLabel, maskToken, readingText } from './device-text.ts';
import { useNow } from './use-now.ts';

// The server writes times as UTC+8 'YYYY-MM-DD HH:mm:ss' text already.
const when = (value: string | null) => value || '—';

/** 基本信息: every field of the device (SPEC §3); its token, to managers, hidden until asked for. */
export function DeviceInfo({ kind, device }: { kind: DeviceKind; device: DeviceRow }) {
  const mobile = useIsMobile();
  const now = useNow();
  const f = features(kind);

  const items: DescriptionsProps['items'] = [
    { key: 'ser_num', label: '序列号', children: <SerNum value={device.ser_num} /> },
    { key: 'kind', label: '设备类别', children: DEVICE_KINDS[kind].label },
    { key: 'id', label: 'ID', children: device.id },
    { key: 'online', label: '在线', children: <OnlineTag online={device.online} /> },
    {
      key: 'time',
      label: '最后上报',
      children: (
        <Flex gap={8} wrap>
          <LastReport time={device.time} now={now} />
          {device.time !== null && (
            <Typography.Text type="secondary">{formatDateTime(device.time)}</Typography.Text>
          )}
        </Flex>
      ),
    },
    { key: 'desc', label: '描述', children: dash(device.desc) },
    { key: 'location', label: '位置', children: dash(device.location), span: 2 },
    { key: 'coord', label: '经纬度', children: coordText(device) },
    { key: 'version', label: '版本', children: dash(device.version) },
    {
      key: 'url',
      label: '地址 (URL)',
      span: 2,
      children: device.url ? (
        <Typography.Text style={{ wordBreak: 'break-all' }}>{device.url}</Typography.Text>
      ) : (
        '—'
      ),
    },
  ];
  // The server sends the token to the device's managers only (docs/permissions.md).
  if (device.token !== undefined) {
    items.push({
      key: 'token',
      label: '令牌',
      children: device.token ? (
        <SecretToken token={device.token} masked={maskToken(device.token)} />
      ) : (
        <Typography.Text type="secondary">—</Typography.Text>
      ),
      span: 2,
    });
  }
  if (f.dispenser) {
    items.push(
      { key: 'warning', label: '告警', children: <WarningTags warning={device.warning} />, span: 2 },
      { key: 'parameter_num', label: '参数编号', children: device.parameter_num ?? '—' },
      { key: 'config_date', label: '配置时间', children: when(device.config_date) },
    );
  }
  if (f.paper) {
    items.push({
      key: 'warning',
      label: '告警',
      children: <WarningTags warning={device.warning} kind="paper_machine" />,
      span: 2,
    });
  }
  if (f.gateway) {
    items.push(
      { key: 'type', label: '网关类型', children: gatewayTypeLabel(device.type) },
      { key: 'warning', label: '告警位', children: device.warning || '无' },
    );
  }
  if (f.rating) {
    items.push(
      { key: 'star_count', label: '评价次数', children: device.star_count },
      { key: 'star_level', label: '评价星级', children: device.star_level },
      { key: 'config_date', label: '配置时间', children: when(device.config_date) },
    );
  }
  if (f.meter) items.push({ key: 'reading', label: '读数', children: readingText(device, kind) });
  if (device.industrial_type) {
    items.push({
      key: 'industrial_type',
      label: '工业类型',
      children:
        INDUSTRIAL_TYPES.find((t) => t.value === device.industrial_type)?.label ?? device.industrial_type,
    });
  }
  if (device.gateway_id !== null)
    items.push({
      key: 'gateway_id',
      label: '所属网关ID',
      children: <DeviceLink kind="gateway" id={device.gateway_id} serNum={String(device.gateway_id)} />,
    });
  // Where it is and what happened to it: links to its toilet, campus room and repairs.
  const place = device.place ?? null;
  if (place && place.toilet_id !== null)
    items.push({
      key: 'toilet',
      label: '所在厕所',
      children: <ToiletLink id={place.toilet_id} name={place.toilet_name} />,
    });
  if (place && place.building_id !== null)
    items.push({ key: 'room', label: '园区位置', children: <PlaceLink place={place} /> });
  items.push(
    { key: 'owners', label: '绑定用户', children: <UserLinks names={device.owners} />, span: 2 },
    {
      key: 'records',
      label: '维修历史',
      children: <DeviceRecordsLink serNum={device.ser_num}>查看维修记录</DeviceRecordsLink>,
    },
    { key: 'created_at', label: '登记时间', children: when(device.created_at) },
  );

  return (
    <>
      <Descriptions bordered size="small" column={mobile ? 1 : 2} items={items} />
      <HardwareInfo device={device} />
    </>
  );
}
