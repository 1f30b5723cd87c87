import { AppstoreAddOutlined } from '@ant-design/icons';
import {
  DEVICE_KINDS,
  formatStars,
  type LiveDevice,
  PLACEABLE_KINDS,
  type PlaceableKind,
  type PlaceableRow,
} from '@se/core';
import { Flex, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { listPlaceable, placeDevices } from '../../api/toilets.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { segmented, text, useListQuery, type ListColumn } from '../../components/list/index.ts';
import { useAttempt } from '../../components/run-call.ts';
import { bindingDiff, changeCount, type Picks } from '../devices/binding-diff.ts';
import { OnlineSince } from '../devices/DeviceBits.tsx';
import { PickList } from '../devices/PickList.tsx';
import { warningTags } from '../devices/device-text.ts';
import { useNow } from '../devices/use-now.ts';
import { kindLabel } from './detail-text.ts';
import { toiletsKey } from './keys.ts';
import { TabTable } from './TabTable.tsx';
import { DeviceLink } from '../../components/ObjectLinks.tsx';

const FILTERS = {
  kind: segmented<PlaceableKind>({
    options: PLACEABLE_KINDS.map((k) => ({ value: k, label: DEVICE_KINDS[k].label })),
  }),
  keywords: text({ placeholder: '序列号 / 描述 / 位置', label: '设备关键字', width: 260, search: true }),
};

const PLACE_COLUMNS: ListColumn<PlaceableRow>[] = [
  { title: '序列号', dataIndex: 'ser_num', width: 160, ellipsis: true, card: false },
  { title: '描述', dataIndex: 'desc', ellipsis: true, render: (d: string) => d || '—' },
  {
    title: '当前位置',
    key: 'where',
    width: 160,
    render: (_, r) =>
      r.placed ? (
        <Tag color="blue">本厕所</Tag>
      ) : r.elsewhere ? (
        <Tooltip title="勾选后将从原厕所移到这里">
          <Tag color="orange">{r.toilet_name || '其他厕所'}</Tag>
        </Tooltip>
      ) : (
        <Typography.Text type="secondary">未放置</Typography.Text>
      ),
  },
];

/** 放置设备: tick the caller's devices of a kind to place them here, untick to take them out. */
function PlaceDialog({
  toiletId,
  toiletName,
  onSaved,
  onClosed,
}: DialogProps<{ toiletId: number; toiletName: string }>) {
  const [open, setOpen] = useState(true);
  const list = useListQuery({
    key: [...toiletsKey, 'placeable', toiletId],
    filters: FILTERS,
    local: true,
    load: (f, paging) =>
      listPlaceable({
        toilet_id: toiletId,
        kind: f.kind,
        keywords: f.keywords.trim() || undefined,
        ...paging,
      }),
  });
  const [picks, setPicks] = useState<Picks>(new Map());
  const { busy: saving, run } = useAttempt();
  const save = async () => {
    const diff = bindingDiff(picks);
    const outcome = await run(() => placeDevices({ toilet_id: toiletId, ...diff }), '设备放置已保存');
    if (outcome.ok) {
      onSaved();
      setOpen(false);
    }
  };
  const changes = changeCount(picks);
  return (
    <FormModal
      open={open}
      title={`放置设备 · ${toiletName}`}
      width={760}
      okText={changes ? `保存（${changes} 项变更）` : '保存'}
      okDisabled={changes === 0}
      saving={saving}
      onSave={() => void save()}
      onCancel={() => setOpen(false)}
      onClosed={onClosed}
    >
      <div style={{ marginTop: 12 }}>
        <PickList
          list={list}
          columns={PLACE_COLUMNS}
          empty="没有可放置的设备"
          cardTitle={(r) => r.ser_num}
          bound={(r) => r.placed}
          picks={picks}
          onPicks={setPicks}
        />
      </div>
    </FormModal>
  );
}

/** 设备: the dispensers, terminals, paper machines and meters placed in the toilet. */
export function PlacedDevicesPanel({
  toiletId,
  toiletName,
  devices,
  canManage,
  onChanged,
}: {
  toiletId: number;
  toiletName: string;
  devices: LiveDevice[];
  canManage: boolean;
  onChanged: () => void;
}) {
  const now = useNow();
  const [placing, setPlacing] = useState(false);
  const columns: TableColumnsType<LiveDevice> = [
    { title: '类型', dataIndex: 'kind', width: 100, render: (k: string) => kindLabel(k) },
    {
      title: '序列号',
      dataIndex: 'ser_num',
      width: 150,
      ellipsis: true,
      render: (sn: string, d) => <DeviceLink kind={d.kind} id={d.id} serNum={sn} />,
    },
    { title: '描述', dataIndex: 'desc', ellipsis: true, render: (d: string) => d || '—' },
    {
      title: '在线',
      key: 'online',
      width: 150,
      render: (_, d) => <OnlineSince online={d.online} time={d.time} now={now} />,
    },
    {
      title: '状态',
      key: 'state',
      width: 160,
      render: (_, d) => {
        if (d.kind === 'evaluate')
          return d.star_count ? `${formatStars(d.star_level)} 星（${d.star_count} 次）` : '暂无评价';
        const tags = d.kind === 'jwb' ? warningTags(d.warning) : [];
        if (!tags.length) return <Tag color="success">正常</Tag>;
        return tags.map((t) => (
          <Tag key={t} color="error">
            {t}
          </Tag>
        ));
      },
    },
  ];
  return (
    <Flex vertical gap={12}>
      <TabTable
        summary={<span>共 {devices.length} 台设备</span>}
        add={
          canManage
            ? { label: '放置设备', icon: <AppstoreAddOutlined />, onClick: () => setPlacing(true) }
            : undefined
        }
        rows={devices}
        columns={columns}
        width={640}
        empty={canManage ? '暂无设备，点击“放置设备”把除臭机、评价器等放入本厕所' : '暂无设备'}
      />
      {placing && (
        <PlaceDialog
          toiletId={toiletId}
          toiletName={toiletName}
          onSaved={onChanged}
          onClosed={() => setPlacing(false)}
        />
      )}
    </Flex>
  );
}
