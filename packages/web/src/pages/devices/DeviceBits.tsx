import { COMMAND_STATUS, type CommandStatus, type DeviceKind } from '@se/core';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import { CopyButton } from '../../components/CopyButton.tsx';
import { TagList } from '../../components/TagList.tsx';
import { lastReportText, lastReportTitle, warningTags } from './device-text.ts';

// Small cells shared by the device lists, the drawer, the sensor list and the toilet list.

export function OnlineTag({ online }: { online: boolean }) {
  return online ? <Tag color="success">在线</Tag> : <Tag>离线</Tag>;
}

export function LastReport({ time, now }: { time: number | null; now: number }) {
  return (
    <Tooltip title={lastReportTitle(time)}>
      <Typography.Text type={time === null ? 'secondary' : undefined}>
        {lastReportText(time, now)}
      </Typography.Text>
    </Tooltip>
  );
}

/** 在线/离线 with how long ago the device last reported, small, for a toilet's device tables. */
export function OnlineSince({ online, time, now }: { online: boolean; time: number | null; now: number }) {
  return (
    <Flex gap={4} align="center">
      <Tag color={online ? 'success' : 'default'}>{online ? '在线' : '离线'}</Tag>
      <Tooltip title={lastReportTitle(time)}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {lastReportText(time, now)}
        </Typography.Text>
      </Tooltip>
    </Flex>
  );
}

export function WarningTags({
  warning,
  kind = 'jwb',
}: {
  warning: number | null | undefined;
  kind?: DeviceKind;
}) {
  return (
    <TagList
      labels={warningTags(warning, kind)}
      color="error"
      empty={<Typography.Text type="secondary">无</Typography.Text>}
    />
  );
}

/** A serial number with its copy button; serials are what operators read out on the phone. */
export function SerNum({ value }: { value: string }) {
  return (
    <Flex align="center" gap={2}>
      <Typography.Text style={{ fontFamily: 'monospace' }}>{value}</Typography.Text>
      <CopyButton text={value} type="text" size="small" aria-label="复制序列号" title="复制序列号">
        {null}
      </CopyButton>
    </Flex>
  );
}

const STATUS_COLORS: Record<CommandStatus, string> = {
  pending: 'default',
  sent: 'processing',
  done: 'success',
  failed: 'error',
  timeout: 'warning',
};

export function CommandStatusTag({ status }: { status: string }) {
  const known = status in COMMAND_STATUS ? (status as CommandStatus) : undefined;
  return <Tag color={known ? STATUS_COLORS[known] : 'default'}>{known ? COMMAND_STATUS[known] : status}</Tag>;
}
