import type { DeviceRow } from '@se/core';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Card, Flex, Typography } from 'antd';
import { AlarmTable } from '../../live/AlarmTable.tsx';
import { HistoryChart } from '../../live/HistoryChart.tsx';
import { LatestValues } from '../../live/LatestValues.tsx';
import { applyDevicePush, isDevicePush } from '../../live/device-push.ts';
import { useLiveChannel, useLiveStatus, type LiveStatus } from '../../live/socket.ts';
import { LastReport, OnlineTag } from './DeviceBits.tsx';
import { useNow } from './use-now.ts';

const STATUS_BADGE: Record<
  LiveStatus,
  { status: 'success' | 'processing' | 'warning' | 'default'; text: string }
> = {
  open: { status: 'success', text: '实时更新中' },
  connecting: { status: 'processing', text: '正在连接' },
  reconnecting: { status: 'warning', text: '连接中断，正在重连' },
  idle: { status: 'default', text: '未连接' },
};

/**
 * 实时数据: the latest value of every reported field, updated by the 'device' channel,
 * the history chart and the device's alarms. The device comes from the drawer's query
 * (deviceKey), which the pushes keep current for the other tabs too.
 */
export function LiveTab({ device, queryKey }: { device: DeviceRow; queryKey: readonly unknown[] }) {
  const queryClient = useQueryClient();
  const live = useLiveStatus();
  // Seconds matter here: the last report is at most a few seconds old on a live device.
  const now = useNow(10_000);

  useLiveChannel(
    { channel: 'device', id: device.id },
    (data) => {
      if (!isDevicePush(data) || data.id !== device.id) return;
      queryClient.setQueryData<DeviceRow>(queryKey, (row) => (row ? applyDevicePush(row, data) : row));
    },
    {
      // Back after a reconnect: reports may have come meanwhile.
      onSubscribed: ({ first }) => {
        if (!first) void queryClient.invalidateQueries({ queryKey });
      },
    },
  );

  const badge = STATUS_BADGE[live];
  return (
    <Flex vertical gap={16}>
      <Card
        size="small"
        title="最新数据"
        extra={
          <Flex align="center" gap={8} wrap>
            <OnlineTag online={device.online} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              最后上报 <LastReport time={device.time} now={now} />
            </Typography.Text>
            <Badge
              status={badge.status}
              text={<Typography.Text style={{ fontSize: 12 }}>{badge.text}</Typography.Text>}
            />
          </Flex>
        }
      >
        <LatestValues kind={device.kind} latest={device.latest ?? {}} />
      </Card>
      <Card size="small" title="历史数据">
        <HistoryChart deviceId={device.id} kind={device.kind} />
      </Card>
      <Card size="small" title="告警记录">
        <AlarmTable scope={`device-${device.id}`} filter={{ device_id: device.id, status: 'all' }} compact />
      </Card>
    </Flex>
  );
}
