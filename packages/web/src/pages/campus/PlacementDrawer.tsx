import { DEVICE_KINDS, formatOccupancy, type PlacedDevice } from '@se/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Flex, List, Select, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { listPlaceable, listPlacements, placeDevice, unplaceDevice } from '../../api/campus.ts';
import { MountedDrawer } from '../../components/MountedDrawer.tsx';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { ConfirmButton } from '../../components/list/index.ts';
import { describeLatest } from '../../live/latest-values.ts';
import { useLiveChannel } from '../../live/socket.ts';
import { campusKey } from './keys.ts';

/** Where the drawer places: a room (and its building), or a building itself. */
export interface PlaceTarget {
  title: string;
  building_id: number;
  room_id?: number;
}

const kindLabel = (kind: string) =>
  kind === 'sensor' ? '传感器' : (DEVICE_KINDS[kind as keyof typeof DEVICE_KINDS]?.label ?? kind);

/** SPEC §9: remote select searches wait 300 ms after the last key. */
const SEARCH_DEBOUNCE_MS = 300;

function Picker({ target, onPlaced }: { target: PlaceTarget; onPlaced: () => void }) {
  const [search, setSearch] = useState('');
  const [keywords, setKeywords] = useState('');
  const [chosen, setChosen] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setKeywords(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search]);
  const devices = useQuery({
    queryKey: [...campusKey, 'placeable', keywords],
    queryFn: () => loadOrThrow(() => listPlaceable(keywords || undefined)),
  });
  const options = (devices.data ?? []).map((d) => ({
    value: d.id,
    label: `${kindLabel(d.kind)} ${d.ser_num}${d.desc ? `（${d.desc}）` : ''}${d.room_id !== null || d.building_id !== null ? ' · 已放置' : ''}`,
  }));
  const place = async () => {
    if (!chosen) return;
    setBusy(true);
    const out = await attempt(
      () => placeDevice({ device_id: chosen, building_id: target.building_id, room_id: target.room_id }),
      '设备已放置',
    );
    setBusy(false);
    if (out.ok) {
      setChosen(undefined);
      onPlaced();
    }
  };
  return (
    <Flex gap={8} style={{ marginBottom: 16 }} wrap>
      <Select<number>
        aria-label="选择设备"
        style={{ flex: 1, minWidth: 220 }}
        value={chosen}
        onChange={setChosen}
        showSearch={{ filterOption: false, onSearch: setSearch }}
        loading={devices.isFetching}
        placeholder="搜索组织管理员名下设备的序列号或描述"
        notFoundContent={devices.isFetching ? '加载中…' : '没有可放置的设备'}
        options={options}
      />
      <Button type="primary" disabled={!chosen} loading={busy} onClick={() => void place()}>
        放置到此处
      </Button>
    </Flex>
  );
}

function DeviceItem({
  d,
  canManage,
  onChanged,
}: {
  d: PlacedDevice;
  canManage: boolean;
  onChanged: () => void;
}) {
  const { items, occupancy } = describeLatest(d.kind, d.latest);
  return (
    <List.Item
      actions={
        canManage
          ? [
              <ConfirmButton
                key="unplace"
                title="取消放置"
                description={`确定把 ${d.ser_num} 从此处移除吗？设备本身不受影响。`}
                okText="移除"
                onConfirm={async () => {
                  const out = await attempt(() => unplaceDevice(d.device_id), '已取消放置');
                  if (out.ok) onChanged();
                }}
              >
                移除
              </ConfirmButton>,
            ]
          : []
      }
    >
      <List.Item.Meta
        title={
          <Space wrap>
            <span>
              {kindLabel(d.kind)} {d.ser_num}
            </span>
            {d.desc && <Typography.Text type="secondary">{d.desc}</Typography.Text>}
            <Tag color={d.online ? 'green' : 'default'}>{d.online ? '在线' : '离线'}</Tag>
            {d.open_alarms > 0 && <Tag color="red">报警 {d.open_alarms}</Tag>}
            {d.room_number && <Tag>房间 {d.room_number}</Tag>}
          </Space>
        }
        description={
          items.length === 0 && occupancy.length === 0 ? (
            '尚无上报数据'
          ) : (
            <Space size={[12, 4]} wrap aria-label={`${d.ser_num} 最新数据`}>
              {items.map((i) => (
                <span key={i.key}>
                  {i.label} {i.text}
                  {i.unit ?? ''}
                  {i.tag && (
                    <Tag color={i.tag.color} style={{ marginInlineStart: 4 }}>
                      {i.tag.text}
                    </Tag>
                  )}
                </span>
              ))}
              {occupancy.map((o) => (
                <span key={o.label}>
                  {o.label} 在用 {formatOccupancy(o.occupy, o.count)}
                </span>
              ))}
            </Space>
          )
        }
      />
    </List.Item>
  );
}

/** A room's or building's devices with their latest data; managers place and remove them. */
export function PlacementDrawer({
  target,
  canManage,
  onChanged,
  onClosed,
}: {
  target: PlaceTarget;
  canManage: boolean;
  onChanged: () => void;
  onClosed: () => void;
}) {
  const client = useQueryClient();
  const at = target.room_id ? { room_id: target.room_id } : { building_id: target.building_id };
  const key = [...campusKey, 'placements', at];
  const placed = useQuery({ queryKey: key, queryFn: () => loadOrThrow(() => listPlacements(at)) });
  const changed = () => {
    void client.invalidateQueries({ queryKey: campusKey });
    onChanged();
  };
  // Reports of the organisation's devices arrive live.
  useLiveChannel({ channel: 'campus' }, () => void placed.refetch());
  return (
    <MountedDrawer title={`${target.title} · 设备`} width={640} onClosed={onClosed}>
      {canManage && <Picker target={target} onPlaced={changed} />}
      {placed.isLoading ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : placed.data && placed.data.length > 0 ? (
        <List
          dataSource={placed.data}
          rowKey="device_id"
          renderItem={(d) => <DeviceItem d={d} canManage={canManage} onChanged={changed} />}
        />
      ) : (
        <Empty description={canManage ? '此处还没有设备，从上方选择设备放置' : '此处还没有设备'} />
      )}
    </MountedDrawer>
  );
}
