import { AppstoreOutlined, EditOutlined } from '@ant-design/icons';
import { type RoomRow, type RoomType } from '@se/core';
import { Typography } from 'antd';
import { listRooms, updateRoom } from '../../api/campus.ts';
import {
  ListView,
  RowAction,
  RowActions,
  select,
  text,
  useDialog,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { AirCell, ROOM_TYPE_OPTIONS, alarmsCell, occupancy, online, roomTypeLabel } from './campus-text.tsx';
import { roomsKey } from './keys.ts';
import { PlacementDrawer, type PlaceTarget } from './PlacementDrawer.tsx';
import { BuildingSelect, RoomDialog } from './RoomDialog.tsx';
import { useCampusRight } from './use-campus-right.ts';

interface Search {
  keywords: string;
  building_id: number | undefined;
  type: RoomType | undefined;
}

const FILTERS: FilterFields<Search> = {
  keywords: text({ placeholder: '房间号 / 名称', label: '关键字', width: 200, search: true }),
  building_id: {
    initial: undefined,
    instant: true,
    encode: (v) => (v === undefined ? undefined : String(v)),
    decode: (s) => (/^\d+$/.test(s) ? Number(s) : undefined),
    render: ({ value, onChange, mobile }) => (
      <BuildingSelect
        value={value}
        onChange={onChange}
        allowClear
        placeholder="全部楼宇"
        style={{ width: mobile ? '100%' : 200 }}
      />
    ),
  },
  type: select<RoomType>({
    options: ROOM_TYPE_OPTIONS as { value: RoomType; label: string }[],
    placeholder: '类型',
    width: 120,
  }),
};

const placeOf = (r: RoomRow) => `${r.building_name} · ${r.floor < 0 ? `B${-r.floor}` : r.floor}层`;

/** 房间管理 (/ss-room): rooms with their latest air, occupancy and open alarms. */
export function RoomsTab() {
  const { canEdit, canManage } = useCampusRight();
  const list = useListQuery({
    key: roomsKey,
    filters: FILTERS,
    load: (s, paging) =>
      listRooms({
        keywords: s.keywords.trim() || undefined,
        building_id: s.building_id,
        type: s.type,
        ...paging,
      }),
  });
  const dialog = useDialog<RoomRow | 'add'>();
  const devices = useDialog<PlaceTarget>();
  const place = (r: RoomRow) =>
    devices.open({ title: `${r.building_name} ${r.number}`, building_id: r.building_id, room_id: r.id });

  const columns: ListColumn<RoomRow>[] = [
    {
      title: '房间',
      key: 'number',
      width: 150,
      fixed: 'left',
      card: false,
      render: (_, r) => (
        <Typography.Link onClick={() => place(r)} title={`${r.number}：查看设备`}>
          {r.number}
          {r.name && ` ${r.name}`}
        </Typography.Link>
      ),
    },
    { title: '楼宇', key: 'building', width: 150, ellipsis: true, render: (_, r) => placeOf(r) },
    { title: '类型', dataIndex: 'type', width: 80, render: roomTypeLabel },
    { title: '空气质量', key: 'air', width: 230, render: (_, r) => <AirCell row={r} /> },
    {
      title: '在用 / 容纳',
      key: 'occupancy',
      width: 100,
      render: (_, r) => occupancy(r.occupancy, r.capacity),
    },
    { title: '报警', dataIndex: 'open_alarms', width: 70, render: alarmsCell },
    { title: '设备在线', key: 'online', width: 90, render: (_, r) => online(r) },
    {
      title: '面积(m²)',
      dataIndex: 'area_m2',
      width: 90,
      from: 'xl',
      render: (v: number | null) => v ?? '—',
    },
  ];

  const devicesButton = (r: RoomRow) => (
    <RowAction icon={<AppstoreOutlined />} onClick={() => place(r)}>
      设备
    </RowAction>
  );
  const actions = (r: RoomRow) =>
    canManage ? (
      <RowActions
        edit={() => dialog.open(r)}
        remove={{
          title: '删除房间',
          question: `确定删除房间 ${r.number} 吗？放置在房间的设备将留在所在楼宇。`,
          call: () => updateRoom({ id: r.id, is_delete: true }),
          onDeleted: list.refresh,
        }}
      >
        {devicesButton(r)}
      </RowActions>
    ) : (
      <>
        {canEdit && (
          <RowAction icon={<EditOutlined />} onClick={() => dialog.open(r)}>
            编辑
          </RowAction>
        )}
        {devicesButton(r)}
      </>
    );

  return (
    <>
      <ListView
        list={list}
        add={canManage ? { label: '新增房间', onClick: () => dialog.open('add') } : undefined}
        columns={columns}
        rowKey="id"
        empty={list.filtered ? '没有符合条件的房间' : canManage ? '暂无房间，点击“新增房间”添加' : '暂无房间'}
        actions={actions}
        actionsWidth={canManage ? 220 : canEdit ? 150 : 90}
        cardTitle={(r) => `${r.number} ${r.name}`}
      />
      {dialog.target && (
        <RoomDialog
          room={dialog.target === 'add' ? null : dialog.target}
          buildingId={list.applied.building_id}
          canManage={canManage}
          onSaved={list.refresh}
          onClosed={dialog.close}
        />
      )}
      {devices.target && (
        <PlacementDrawer
          target={devices.target}
          canManage={canManage}
          onChanged={list.refresh}
          onClosed={devices.close}
        />
      )}
    </>
  );
}
