import { AppstoreOutlined, PictureOutlined } from '@ant-design/icons';
import { BUILDING_PHOTO_MAX_BYTES, type BuildingRow, type BuildingUse } from '@se/core';
import { Image, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { buildingPhotoUrl, listBuildings, updateBuilding, uploadBuildingPhoto } from '../../api/campus.ts';
import { ImageUploadButton, useStoredImage } from '../../components/StoredImage.tsx';
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
import { BuildingDialog } from './BuildingDialog.tsx';
import { AirCell, USE_OPTIONS, alarmsCell, occupancy, online, useLabel } from './campus-text.tsx';
import { buildingsKey } from './keys.ts';
import { PlacementDrawer, type PlaceTarget } from './PlacementDrawer.tsx';
import { useCampusRight } from './use-campus-right.ts';

interface Search {
  keywords: string;
  use: BuildingUse | undefined;
}

const FILTERS: FilterFields<Search> = {
  keywords: text({ placeholder: '名称 / 编号 / 地址 / 负责人', label: '关键字', width: 240, search: true }),
  use: select<BuildingUse>({
    options: USE_OPTIONS as { value: BuildingUse; label: string }[],
    placeholder: '用途',
    width: 140,
  }),
};

const floors = (b: BuildingRow) =>
  b.floors_below ? `地上 ${b.floors_above} / 地下 ${b.floors_below}` : `${b.floors_above} 层`;

/** The building's photo as a thumbnail that opens full size; a dash without one. */
function BuildingPhoto({ b }: { b: BuildingRow }) {
  const url = useStoredImage(b.photo, () => buildingPhotoUrl(b.id, b.photo));
  if (!b.photo) return <PictureOutlined style={{ color: '#bbb', fontSize: 20 }} aria-label="暂无照片" />;
  return (
    <Image
      src={url ?? undefined}
      alt={`${b.name}照片`}
      width={56}
      height={40}
      style={{ objectFit: 'cover', borderRadius: 4 }}
      preview={{ mask: '查看' }}
    />
  );
}

/** 楼栋管理 (/ss-building): the organisation's buildings, each rolling its rooms' figures up. */
export function BuildingsTab() {
  const { canManage } = useCampusRight();
  const navigate = useNavigate();
  const list = useListQuery({
    key: buildingsKey,
    filters: FILTERS,
    load: (s, paging) => listBuildings({ keywords: s.keywords.trim() || undefined, use: s.use, ...paging }),
  });
  const dialog = useDialog<BuildingRow | 'add'>();
  const devices = useDialog<PlaceTarget>();
  const openRooms = (b: BuildingRow) => void navigate(`/ss-room?building_id=${b.id}`);

  const columns: ListColumn<BuildingRow>[] = [
    { title: '照片', key: 'photo', width: 72, render: (_, b) => <BuildingPhoto b={b} /> },
    {
      title: '名称',
      dataIndex: 'name',
      width: 150,
      fixed: 'left',
      card: false,
      render: (name: string, b) => (
        <Typography.Link onClick={() => openRooms(b)} title={`${name}：查看房间`}>
          {name}
        </Typography.Link>
      ),
    },
    { title: '编号', dataIndex: 'code', width: 80, render: (c: string) => c || '—' },
    { title: '用途', dataIndex: 'use', width: 90, render: useLabel },
    { title: '楼层', key: 'floors', width: 130, render: (_, b) => floors(b) },
    { title: '房间', dataIndex: 'rooms', width: 70 },
    { title: '设备在线', key: 'online', width: 90, render: (_, b) => online(b) },
    { title: '空气质量（最差）', key: 'air', width: 230, render: (_, b) => <AirCell row={b} /> },
    { title: '在用', dataIndex: 'occupancy', width: 70, render: (v: number | null) => occupancy(v) },
    { title: '报警', dataIndex: 'open_alarms', width: 70, render: alarmsCell },
    {
      title: '面积(m²)',
      dataIndex: 'area_m2',
      width: 100,
      from: 'xl',
      render: (v: number | null) => v ?? '—',
    },
    {
      title: '负责人',
      key: 'manager',
      width: 160,
      from: 'xl',
      render: (_, b) => [b.manager_name, b.manager_phone].filter(Boolean).join(' ') || '—',
    },
  ];

  const place = (b: BuildingRow) => devices.open({ title: b.name, building_id: b.id });
  const actions = (b: BuildingRow) =>
    canManage ? (
      <RowActions
        edit={() => dialog.open(b)}
        remove={{
          title: '删除楼宇',
          question: `确定删除 ${b.name} 吗？楼宇下的房间需先删除，放置在楼宇的设备将被移除。`,
          call: () => updateBuilding({ id: b.id, is_delete: true }),
          onDeleted: list.refresh,
        }}
      >
        <RowAction icon={<AppstoreOutlined />} onClick={() => place(b)}>
          设备
        </RowAction>
        <ImageUploadButton
          button={{ size: 'small', type: 'link', icon: <PictureOutlined /> }}
          maxBytes={BUILDING_PHOTO_MAX_BYTES}
          send={(file) => uploadBuildingPhoto(b.id, file)}
          success="照片已更新"
          onDone={list.refresh}
        >
          {b.photo ? '换照片' : '上传照片'}
        </ImageUploadButton>
      </RowActions>
    ) : (
      <RowAction icon={<AppstoreOutlined />} onClick={() => place(b)}>
        设备
      </RowAction>
    );

  return (
    <>
      <ListView
        list={list}
        add={canManage ? { label: '新增楼宇', onClick: () => dialog.open('add') } : undefined}
        columns={columns}
        rowKey="id"
        empty={list.filtered ? '没有符合条件的楼宇' : canManage ? '暂无楼宇，点击“新增楼宇”添加' : '暂无楼宇'}
        actions={actions}
        actionsWidth={canManage ? 300 : 90}
        cardTitle={(b) => b.name}
      />
      {dialog.target && (
        <BuildingDialog
          building={dialog.target === 'add' ? null : dialog.target}
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
