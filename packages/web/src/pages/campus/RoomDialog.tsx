import { addRoomBody, type RoomRow, type RoomType } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { addRoom, listBuildings, updateRoom } from '../../api/campus.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { loadOrThrow } from '../../components/feedback.ts';
import { valuesOf, type FormField } from '../../components/form-fields.tsx';
import { ROOM_TYPE_OPTIONS } from './campus-text.tsx';
import { buildingsKey } from './keys.ts';

interface Values {
  building_id?: number;
  floor: number;
  number: string;
  name?: string;
  type: RoomType;
  area_m2?: number;
  capacity?: number;
}

/** The organisation's buildings to choose from (an organisation has tens, not thousands). */
export function BuildingSelect({
  value,
  onChange,
  id,
  allowClear,
  placeholder = '选择楼宇',
  style,
}: {
  value?: number;
  onChange?: (v: number | undefined) => void;
  id?: string;
  allowClear?: boolean;
  placeholder?: string;
  style?: React.CSSProperties;
}) {
  const buildings = useQuery({
    queryKey: [...buildingsKey, 'options'],
    queryFn: () => loadOrThrow(() => listBuildings({ page_size: 100 })),
  });
  return (
    <Select<number>
      id={id}
      aria-label="楼宇"
      value={value}
      onChange={(v) => onChange?.(v ?? undefined)}
      allowClear={allowClear}
      showSearch={{ optionFilterProp: 'label' }}
      loading={buildings.isLoading}
      placeholder={placeholder}
      style={style}
      options={(buildings.data?.list ?? []).map((b) => ({
        value: b.id,
        label: b.code ? `${b.name}（${b.code}）` : b.name,
      }))}
    />
  );
}

/**
 * 新增房间 / 编辑房间. A campus user (ssUser) edits a room's details; only a manager moves it
 * to another building (the server checks both).
 */
export function RoomDialog({
  room,
  buildingId,
  canManage,
  onSaved,
  onClosed,
}: DialogProps<{ room: RoomRow | null; buildingId?: number; canManage: boolean }>) {
  const initialValues: Values = room
    ? valuesOf({ ...room, type: room.type as RoomType }, [
        'building_id',
        'floor',
        'number',
        'name',
        'type',
        'area_m2',
        'capacity',
      ])
    : { building_id: buildingId, floor: 1, number: '', type: 'classroom' };
  const fields: FormField<Values>[] = [
    {
      name: 'building_id',
      label: '楼宇',
      span: 12,
      required: true,
      disabled: !canManage,
      render: () => <BuildingSelect />,
    },
    { name: 'floor', label: '楼层', span: 12, kind: 'number', required: true, props: { min: -20, max: 200 } },
    { name: 'number', label: '房间号', span: 12, required: true, maxLength: 30, placeholder: '如 201' },
    { name: 'type', label: '类型', span: 12, kind: 'select', required: true, options: ROOM_TYPE_OPTIONS },
    { name: 'name', label: '名称', maxLength: 60, placeholder: '如 多媒体教室（可不填）' },
    { name: 'area_m2', label: '面积（m²）', span: 12, kind: 'number', props: { min: 0, max: 1_000_000 } },
    {
      name: 'capacity',
      label: '容纳人数',
      span: 12,
      kind: 'number',
      props: { min: 0, max: 100_000, precision: 0 },
    },
  ];
  const submit = (v: Values) => {
    const body = {
      ...v,
      building_id: v.building_id!,
      area_m2: v.area_m2 ?? null,
      capacity: v.capacity ?? null,
    };
    if (!room) return addRoom(body);
    const { building_id, ...details } = body;
    return updateRoom({
      id: room.id,
      ...details,
      ...(building_id !== room.building_id ? { building_id } : {}),
    });
  };
  return (
    <FormModal
      title={room ? '编辑房间' : '新增房间'}
      width={600}
      name="room"
      schema={addRoomBody}
      initialValues={initialValues}
      fields={fields}
      submit={submit}
      success={room ? '房间已保存' : '房间已新增'}
      errorField={(_, message) =>
        message.includes('房间号') ? 'number' : message.includes('楼层') ? 'floor' : undefined
      }
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}
