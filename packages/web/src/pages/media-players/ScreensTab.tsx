import {
  DEVICE_KINDS,
  PLAYER_OP_LABELS,
  PLAYER_OPS,
  SCREEN_TYPE_LABELS,
  SCREEN_TYPES,
  type DeviceCommand,
  type MediaPlayerRow,
} from '@se/core';
import { EyeOutlined } from '@ant-design/icons';
import {
  Button,
  Descriptions,
  Flex,
  Image,
  Input,
  InputNumber,
  Popconfirm,
  Space,
  Tag,
  Typography,
} from 'antd';
import { ToiletLink } from '../../components/ObjectLinks.tsx';
import { useState } from 'react';
import { listCommands } from '../../api/devices.ts';
import { getScreen, listScreens, playerCommand } from '../../api/media-players.ts';
import { MountedDrawer } from '../../components/MountedDrawer.tsx';
import { attempt } from '../../components/feedback.ts';
import { DEVICE_PARAM, idParam, useLinkedParam } from '../../components/object-links.ts';
import {
  ListPanel,
  ListView,
  NO_FILTERS,
  RowAction,
  choice,
  text,
  useDialog,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { CommandStatusTag, LastReport, OnlineTag, SerNum } from '../devices/DeviceBits.tsx';
import { DeviceFormDialog } from '../devices/DeviceFormDialog.tsx';
import { statusBits, type OnlineChoice } from '../devices/device-text.ts';
import { onlineFilter } from '../devices/device-filters.ts';
import { useNow } from '../devices/use-now.ts';
import { useQuery } from '@tanstack/react-query';
import { deliveryColor, deliveryText } from './delivery-text.ts';

type ScreenType = (typeof SCREEN_TYPES)[number] | 'all';
interface Search {
  keywords: string;
  type: ScreenType;
  online: OnlineChoice;
}

const FILTERS: FilterFields<Search> = {
  keywords: text({ placeholder: '序列号 / 描述 / 位置', label: '关键字', width: 220, search: true }),
  type: choice<ScreenType>({
    label: '类型',
    options: [
      { value: 'all', label: '全部' },
      ...SCREEN_TYPES.map((v) => ({ value: v, label: SCREEN_TYPE_LABELS[v] })),
    ],
    width: 240,
  }),
  online: onlineFilter(),
};

const typeOf = (s: Pick<MediaPlayerRow, 'kind' | 'type'>) =>
  s.kind === 'player'
    ? SCREEN_TYPE_LABELS.player
    : (SCREEN_TYPE_LABELS[String(s.type) as '43' | '40'] ?? '网关');

export function DeliveryTag({ screen }: { screen: MediaPlayerRow }) {
  const t = deliveryText(screen);
  return <Tag color={screen.delivery_state ? deliveryColor(screen) : 'default'}>{t}</Tag>;
}

export const screensKey = ['media', 'screens'] as const;

/** 播放器: multimedia gateways and stand-alone players, what each was sent and is playing. */
export function ScreensTab() {
  const now = useNow();
  const [detail, setDetail] = useState<Pick<MediaPlayerRow, 'id' | 'ser_num'> | null>(null);
  // A link to a player (?device=<id>, from an alarm or a record) opens its drawer.
  const [linked, clearLinked] = useLinkedParam(DEVICE_PARAM);
  const linkedId = idParam(linked);
  const shown = detail ?? (linkedId === null ? null : { id: linkedId, ser_num: '' });
  const closeDetail = () => {
    setDetail(null);
    clearLinked();
  };
  const adding = useDialog();
  const list = useListQuery({
    key: [...screensKey, 'list'],
    filters: FILTERS,
    param: 'screen.',
    load: (f, paging) =>
      listScreens({
        keywords: f.keywords.trim() || undefined,
        type: f.type === 'all' ? undefined : f.type,
        status: statusBits(f.online),
        ...paging,
      }),
  });
  const columns: ListColumn<MediaPlayerRow>[] = [
    {
      title: '序列号',
      dataIndex: 'ser_num',
      width: 160,
      fixed: 'left',
      render: (v: string) => <SerNum value={v} />,
      card: false,
    },
    { title: '类型', key: 'type', width: 170, render: (_, s) => typeOf(s) },
    {
      title: '描述',
      dataIndex: 'desc',
      width: 140,
      ellipsis: true,
      from: 'lg',
      render: (v: string) => v || '—',
    },
    {
      title: '厕所',
      dataIndex: 'toilet_name',
      width: 140,
      ellipsis: true,
      from: 'lg',
      render: (v: string, r) => <ToiletLink id={r.toilet_id} name={v} />,
    },
    {
      title: '在线',
      dataIndex: 'online',
      width: 76,
      render: (o: boolean) => <OnlineTag online={o} />,
      card: false,
    },
    {
      title: '最后上报',
      dataIndex: 'time',
      width: 110,
      from: 'lg',
      render: (t: number | null) => <LastReport time={t} now={now} />,
    },
    { title: '下发状态', key: 'delivery', width: 170, render: (_, s) => <DeliveryTag screen={s} /> },
    {
      title: '正在播放',
      dataIndex: 'now_item_name',
      width: 150,
      ellipsis: true,
      render: (v: string) => v || '—',
    },
  ];
  return (
    <>
      <ListView
        list={list}
        columns={columns}
        rowKey="id"
        empty={list.filtered ? '没有符合条件的播放器' : '暂无播放器，请登记独立播放器或多媒体网关'}
        cardTitle={(s) => s.ser_num}
        cardExtra={(s) => <DeliveryTag screen={s} />}
        add={{ label: '登记播放器', onClick: () => adding.open(true) }}
        actions={(s) => (
          <RowAction icon={<EyeOutlined />} onClick={() => setDetail(s)}>
            详情
          </RowAction>
        )}
      />
      {adding.target && (
        <DeviceFormDialog
          kind="player"
          target={{ mode: 'add' }}
          onSaved={() => list.refresh()}
          onClosed={adding.close}
        />
      )}
      {shown && <ScreenDrawer key={shown.id} id={shown.id} title={shown.ser_num} onClosed={closeDetail} />}
    </>
  );
}

const commandLabel = (c: Pick<DeviceCommand, 'type' | 'op'>) => {
  if (c.type === 'manifest') return '播放清单';
  if (c.type !== 'player' || c.op === null) return c.type;
  const key = (Object.keys(PLAYER_OPS) as (keyof typeof PLAYER_OPS)[]).find((k) => PLAYER_OPS[k] === c.op);
  return key ? PLAYER_OP_LABELS[key] : String(c.op);
};

const COMMAND_COLUMNS: ListColumn<DeviceCommand>[] = [
  { title: '时间', dataIndex: 'created_at', width: 170, card: false },
  { title: '命令', key: 'op', width: 100, render: (_, c) => commandLabel(c) },
  {
    title: '状态',
    dataIndex: 'status',
    width: 90,
    render: (s: string) => <CommandStatusTag status={s} />,
    card: false,
  },
  { title: '结果', dataIndex: 'result', ellipsis: true, render: (v: string) => v || '—' },
];

/** A screen's drawer: what it plays and reports, its commands and what was sent to it. */
/** `title` is the serial number, or '' when only the id is known (a link): then the loaded one. */
function ScreenDrawer({ id, title, onClosed }: { id: number; title: string; onClosed: () => void }) {
  const now = useNow();
  const screen = useQuery({
    queryKey: [...screensKey, 'one', id],
    queryFn: async () => {
      const r = await getScreen(id);
      if (r.code !== 200) throw new Error(r.message);
      return r.data;
    },
    refetchInterval: 5000,
  });
  const commands = useListQuery({
    key: ['commands', id],
    filters: NO_FILTERS,
    local: true,
    load: (_, paging) => listCommands({ device_id: id, ...paging }),
  });
  const [volume, setVolume] = useState<number | null>(null);
  const [on, setOn] = useState('07:00');
  const [off, setOff] = useState('22:00');
  const send = async (body: Parameters<typeof playerCommand>[0], done: string) => {
    const r = await attempt(() => playerCommand(body), done);
    if (r.ok) commands.apply();
  };
  const s = screen.data;
  const l = (s?.latest ?? {}) as Record<string, unknown>;
  const shot = typeof l.screenshot_url === 'string' ? l.screenshot_url : null;
  return (
    <MountedDrawer
      title={`${DEVICE_KINDS.player.label} ${title || (screen.data?.ser_num ?? '')}`}
      width={720}
      onClosed={onClosed}
    >
      {s && (
        <Flex vertical gap={16}>
          <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered>
            <Descriptions.Item label="类型">{typeOf(s)}</Descriptions.Item>
            <Descriptions.Item label="在线">
              <OnlineTag online={s.online} /> <LastReport time={s.time} now={now} />
            </Descriptions.Item>
            <Descriptions.Item label="下发状态">
              <DeliveryTag screen={s} />
            </Descriptions.Item>
            <Descriptions.Item label="正在播放">{s.now_item_name || '—'}</Descriptions.Item>
            <Descriptions.Item label="音量">
              {typeof l.volume === 'number' ? l.volume : '—'}
            </Descriptions.Item>
            <Descriptions.Item label="屏幕">
              {l.screen_on === undefined ? '—' : l.screen_on ? '开' : '关'}
            </Descriptions.Item>
            <Descriptions.Item label="开关屏时间">
              {typeof l.screen_schedule === 'string' ? l.screen_schedule : '—'}
            </Descriptions.Item>
            <Descriptions.Item label="分辨率">
              {typeof l.resolution === 'string' ? l.resolution : '—'}
            </Descriptions.Item>
            <Descriptions.Item label="剩余存储">
              {typeof l.storage_free === 'number' ? `${Math.round(l.storage_free)} MB` : '—'}
            </Descriptions.Item>
            <Descriptions.Item label="厕所">
              <ToiletLink id={s.toilet_id} name={s.toilet_name} />
            </Descriptions.Item>
          </Descriptions>
          {shot ? (
            <Image src={shot} alt="最近截图" width={320} />
          ) : (
            <Typography.Text type="secondary">暂无截图</Typography.Text>
          )}
          <Flex wrap gap={8} align="center" aria-label="播放器命令">
            <Popconfirm
              title="重启播放器"
              description="播放将中断约一分钟。"
              onConfirm={() => send({ id, op: 'restart' }, '已下发重启')}
            >
              <Button>重启</Button>
            </Popconfirm>
            <Space.Compact>
              <InputNumber<number>
                min={0}
                max={100}
                precision={0}
                value={volume}
                onChange={setVolume}
                placeholder="音量"
                aria-label="音量"
                style={{ width: 90 }}
              />
              <Button
                disabled={volume === null}
                onClick={() => void send({ id, op: 'volume', volume: volume! }, '已下发音量')}
              >
                设置音量
              </Button>
            </Space.Compact>
            <Button onClick={() => void send({ id, op: 'screen', on: true }, '已下发开屏')}>开屏</Button>
            <Popconfirm
              title="关屏"
              description="屏幕将熄灭，直到开屏或到开屏时间。"
              onConfirm={() => send({ id, op: 'screen', on: false }, '已下发关屏')}
            >
              <Button>关屏</Button>
            </Popconfirm>
            <Button type="primary" onClick={() => void send({ id, op: 'sync' }, '已下发同步')}>
              立即同步
            </Button>
          </Flex>
          <Flex wrap gap={8} align="center">
            <span>开关屏时间</span>
            <Input
              value={on}
              onChange={(e) => setOn(e.target.value)}
              aria-label="开屏时间"
              style={{ width: 80 }}
            />
            <span>至</span>
            <Input
              value={off}
              onChange={(e) => setOff(e.target.value)}
              aria-label="关屏时间"
              style={{ width: 80 }}
            />
            <Button
              onClick={() =>
                void send({ id, op: 'screenSchedule', screen_on: on, screen_off: off }, '已下发开关屏时间')
              }
            >
              下发
            </Button>
          </Flex>
          <ListPanel
            list={commands}
            columns={COMMAND_COLUMNS}
            rowKey="id"
            title="命令与下发记录"
            empty="暂无命令"
            cardTitle={(c) => commandLabel(c)}
          />
        </Flex>
      )}
    </MountedDrawer>
  );
}
