import { EditOutlined, QrcodeOutlined, ReloadOutlined, ToolOutlined } from '@ant-design/icons';
import { addRecordPath, type DevicePush, formatStars, isOpenAt, type ToiletDetail } from '@se/core';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Descriptions, Flex, Result, Skeleton, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { getToiletDetail } from '../../api/toilets.ts';
import { loadOrThrow } from '../../components/feedback.ts';
import { MountedDrawer } from '../../components/MountedDrawer.tsx';
import { DeviceLink, UserLinks } from '../../components/ObjectLinks.tsx';
import { isDevicePush } from '../../live/device-push.ts';
import { useLiveChannel, useLiveStatus } from '../../live/socket.ts';
import { useNow } from '../devices/use-now.ts';
import { DisplayTokensPanel } from './DisplayTokensPanel.tsx';
import { PatrolPanel } from '../attendance/PatrolPanel.tsx';
import { DocumentDialog } from './DocumentDialog.tsx';
import { LivePanel } from './LivePanel.tsx';
import { PartsPanel } from './PartsPanel.tsx';
import { PlacedDevicesPanel } from './PlacedDevicesPanel.tsx';
import { QrPrintDialog } from './QrPrintDialog.tsx';
import { ReviewsPanel } from './ReviewsPanel.tsx';
import { StatusPanel } from './StatusPanel.tsx';
import { applyDetailPush, liveIdsOf, openingHoursText } from './detail-text.ts';
import { hhmmOf } from '../display/display-view.ts';
import { toiletDetailKey, toiletsKey } from './keys.ts';
import { StatusTags } from './StatusTags.tsx';
import { addressText } from './toilet-text.ts';

/** When a device of the toilet cannot be followed live (not visible to the caller on its own). */
const POLL_MS = 30_000;

/** One device's live channel; renders nothing. */
function LiveFeed({
  id,
  onPush,
  onRefused,
  onResubscribed,
}: {
  id: number;
  onPush: (push: DevicePush) => void;
  onRefused: () => void;
  onResubscribed: () => void;
}) {
  useLiveChannel(
    { channel: 'device', id },
    (data) => {
      if (isDevicePush(data)) onPush(data);
    },
    { onRefused, onSubscribed: ({ first }) => !first && onResubscribed() },
  );
  return null;
}

function Overview({ detail, onEditDocument }: { detail: ToiletDetail; onEditDocument?: () => void }) {
  const now = useNow();
  const { toilet, document: doc } = detail;
  const open = isOpenAt(hhmmOf(now), doc.open_time, doc.close_time);
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, sm: 2 }}
      extra={
        onEditDocument && (
          <Button size="small" icon={<EditOutlined />} onClick={onEditDocument}>
            编辑开放时间与厕位
          </Button>
        )
      }
      items={[
        { key: 'address', label: '地址', span: 2, children: addressText(toilet) || '—' },
        {
          key: 'hours',
          label: '开放时间',
          children: (
            <Flex gap={8} align="center">
              {openingHoursText(doc.open_time, doc.close_time)}
              <Tag color={open ? 'success' : 'default'}>{open ? '开放中' : '已关闭'}</Tag>
            </Flex>
          ),
        },
        {
          key: 'cubicles',
          label: '厕位数',
          children: `男 ${doc.male_count} · 女 ${doc.female_count} · 其他 ${doc.others_count}`,
        },
        {
          key: 'coords',
          label: '坐标',
          children: toilet.lng !== null && toilet.lat !== null ? `${toilet.lng}, ${toilet.lat}` : '—',
        },
        {
          key: 'stars',
          label: '评分',
          children:
            detail.star_average === null
              ? '暂无'
              : `${formatStars(detail.star_average)}（${toilet.star_count} 次）`,
        },
        {
          key: 'gateway',
          label: '网关',
          children: <DeviceLink kind="gateway" id={toilet.gateway_id} serNum={toilet.gateway_ser_num} />,
        },
        { key: 'owners', label: '绑定用户', children: <UserLinks names={toilet.owners} /> },
        { key: 'content', label: '说明', span: 2, children: doc.content || '—' },
      ]}
    />
  );
}

/** The toilet detail, opened from the /smart-toilet list; follows its devices live. */
export function ToiletDetailDrawer({ toiletId, onClose }: { toiletId: number; onClose: () => void }) {
  const queryClient = useQueryClient();
  const liveStatus = useLiveStatus();
  const [tab, setTab] = useState('overview');
  const [dialog, setDialog] = useState<'document' | 'qr' | null>(null);
  // Devices of the toilet the caller cannot follow on /ws (bound to someone else): poll.
  const [poll, setPoll] = useState(false);
  const key = toiletDetailKey(toiletId);
  const detail = useQuery({
    queryKey: key,
    queryFn: () => loadOrThrow(() => getToiletDetail(toiletId)),
    refetchInterval: poll ? POLL_MS : false,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: toiletsKey });
  const onPush = (push: DevicePush) => {
    queryClient.setQueryData<ToiletDetail>(key, (d) => (d ? applyDetailPush(d, push) : d));
    // A terminal's rating is also a new review and a new average.
    if (push.kind === 'evaluate' && typeof push.data?.star_level === 'number') void detail.refetch();
  };
  const d = detail.data;
  const ids = liveIdsOf(d);

  let body;
  if (!d) {
    body = detail.isError ? (
      <Result
        status="warning"
        title="厕所详情加载失败"
        subTitle={detail.error.message}
        extra={<Button onClick={() => void detail.refetch()}>重试</Button>}
      />
    ) : (
      <Skeleton active paragraph={{ rows: 8 }} />
    );
  } else {
    body = (
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'overview',
            label: '概况',
            children: (
              <Flex vertical gap={12}>
                <Overview
                  detail={d}
                  onEditDocument={d.can_manage ? () => setDialog('document') : undefined}
                />
                <LivePanel detail={d} />
              </Flex>
            ),
          },
          { key: 'status', label: '状态', children: <StatusPanel toilet={d.toilet} onChanged={refresh} /> },
          {
            key: 'parts',
            label: (
              <Badge count={d.parts.filter((p) => p.state !== 0).length} size="small" offset={[8, -2]}>
                部件
              </Badge>
            ),
            children: (
              <PartsPanel toiletId={toiletId} parts={d.parts} canManage={d.can_manage} onChanged={refresh} />
            ),
          },
          {
            key: 'devices',
            label: '设备',
            children: (
              <PlacedDevicesPanel
                toiletId={toiletId}
                toiletName={d.toilet.name}
                devices={d.devices}
                canManage={d.can_manage}
                onChanged={refresh}
              />
            ),
          },
          {
            key: 'reviews',
            label: '评价',
            children: (
              <ReviewsPanel
                toiletId={toiletId}
                toiletName={d.toilet.name}
                comments={d.comments}
                starAverage={d.star_average}
                starCount={d.toilet.star_count}
              />
            ),
          },
          {
            key: 'patrols',
            label: '巡检',
            children: <PatrolPanel toiletId={toiletId} canEdit={d.can_manage} />,
          },
          {
            key: 'display',
            label: '显示屏',
            children: <DisplayTokensPanel toiletId={toiletId} canManage={d.can_manage} />,
          },
        ]}
      />
    );
  }

  return (
    <MountedDrawer
      onClosed={onClose}
      width={960}
      title={
        <Flex align="center" gap={8} wrap>
          <span>{d?.toilet.name ?? '厕所详情'}</span>
          {d && <StatusTags status={d.toilet.status} />}
          {d && ids.length > 0 && (
            <Tooltip title={poll ? '部分设备无法实时订阅，每 30 秒刷新' : '厕位与空气数据实时更新'}>
              <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
                <Badge status={liveStatus === 'open' ? 'processing' : 'default'} />
                {liveStatus === 'open' ? '实时' : '连接中'}
              </Typography.Text>
            </Tooltip>
          )}
        </Flex>
      }
      extra={
        <Flex gap={8}>
          <Button icon={<ReloadOutlined />} onClick={() => void detail.refetch()} aria-label="刷新" />
          {d && (
            <Button icon={<QrcodeOutlined />} onClick={() => setDialog('qr')}>
              评价二维码
            </Button>
          )}
          {d && (
            <Link to={addRecordPath({ toilet_id: toiletId })}>
              <Button icon={<ToolOutlined />}>报修</Button>
            </Link>
          )}
        </Flex>
      }
    >
      {body}
      {ids.map((id) => (
        <LiveFeed
          key={id}
          id={id}
          onPush={onPush}
          onRefused={() => setPoll(true)}
          onResubscribed={() => void detail.refetch()}
        />
      ))}
      {d && dialog === 'document' && (
        <DocumentDialog
          toiletId={toiletId}
          toiletName={d.toilet.name}
          document={d.document}
          onSaved={refresh}
          onClosed={() => setDialog(null)}
        />
      )}
      {d && dialog === 'qr' && <QrPrintDialog toilet={d.toilet} onClose={() => setDialog(null)} />}
    </MountedDrawer>
  );
}
