import { WEEKDAY_BITS, addScheduleBody, type ScheduleRow } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Tag } from 'antd';
import { useState } from 'react';
import {
  addSchedule,
  listGroups,
  listPlaylists,
  listScreens,
  listSchedules,
  publish,
  updateSchedule,
} from '../../api/media-players.ts';
import { EntityList } from '../../components/EntityList.tsx';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { attempt } from '../../components/feedback.ts';
import type { FormField } from '../../components/form-fields.tsx';
import { text, useListQuery, type FilterFields, type ListColumn } from '../../components/list/index.ts';
import { weekdaysText, windowText } from './delivery-text.ts';

interface ScheduleForm {
  name: string;
  playlist_id?: number;
  priority: number;
  date_from: string;
  date_to: string;
  weekdays: number[];
  time_from: string;
  time_to: string;
  emergency: boolean;
  player_ids: number[];
  group_ids: number[];
}

const DAYS = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'].map((label, i) => ({
  label,
  value: 1 << i,
}));
const bitsOf = (days: number[]) => days.reduce((a, b) => a | b, 0);
const daysOf = (bits: number) => DAYS.map((d) => d.value).filter((v) => bits & v);

export function ScheduleDialog({
  schedule,
  onSaved,
  onClosed,
}: DialogProps<{ schedule: ScheduleRow | null }>) {
  const [form] = Form.useForm<ScheduleForm>();
  const playlists = useQuery({
    queryKey: ['media', 'playlists', 'options'],
    queryFn: async () => (await listPlaylists({ page_size: 100 })).data?.list ?? [],
  });
  const screens = useQuery({
    queryKey: ['media', 'screens', 'options'],
    queryFn: async () => (await listScreens({ page_size: 100 })).data?.list ?? [],
  });
  const groups = useQuery({
    queryKey: ['media', 'groups', 'options'],
    queryFn: async () => (await listGroups({ page_size: 100 })).data?.list ?? [],
  });
  const emergency = Form.useWatch('emergency', form);
  const fields: FormField<ScheduleForm>[] = [
    { name: 'name', label: '名称', required: true, maxLength: 50, placeholder: '如：工作日白天' },
    {
      name: 'playlist_id',
      label: '播放列表',
      kind: 'select',
      required: true,
      options: (playlists.data ?? []).map((p) => ({ value: p.id, label: p.name })),
    },
    {
      name: 'player_ids',
      label: '播放器',
      kind: 'select',
      props: { mode: 'multiple', optionFilterProp: 'label' },
      options: (screens.data ?? []).map((s) => ({
        value: s.id,
        label: `${s.ser_num}${s.desc ? ` ${s.desc}` : ''}`,
      })),
    },
    {
      name: 'group_ids',
      label: '播放器分组',
      kind: 'select',
      props: { mode: 'multiple', optionFilterProp: 'label' },
      options: (groups.data ?? []).map((g) => ({ value: g.id, label: g.name })),
      extra: '可选择播放器、分组或两者；分组成员变化时自动下发。',
    },
    { name: 'emergency', label: '紧急插播', kind: 'switch', extra: '紧急插播立即覆盖所有排期，直到撤销。' },
    {
      name: 'priority',
      label: '优先级',
      kind: 'number',
      span: 8,
      props: { min: 0, max: 100 },
      hidden: (v) => v.emergency,
      extra: '时段重叠时优先级高的播放',
    },
    {
      name: 'date_from',
      label: '开始日期',
      span: 8,
      placeholder: 'YYYY-MM-DD（不限）',
      hidden: (v) => v.emergency,
    },
    {
      name: 'date_to',
      label: '结束日期',
      span: 8,
      placeholder: 'YYYY-MM-DD（不限）',
      hidden: (v) => v.emergency,
    },
    { name: 'time_from', label: '开始时间', span: 12, placeholder: 'HH:MM', hidden: (v) => v.emergency },
    {
      name: 'time_to',
      label: '结束时间',
      span: 12,
      placeholder: 'HH:MM',
      hidden: (v) => v.emergency,
      extra: '相同表示全天；早于开始时间表示到次日',
    },
    {
      name: 'weekdays',
      label: '星期',
      hidden: (v) => v.emergency,
      rules: [
        {
          validator: (_, v: number[]) =>
            v?.length ? Promise.resolve() : Promise.reject(new Error('请至少选择一天')),
        },
      ],
      render: () => <Checkbox.Group options={DAYS} />,
    },
  ];
  return (
    <FormModal
      form={form}
      title={schedule ? `编辑排期 ${schedule.name}` : '新增排期'}
      width={680}
      name="schedule"
      fields={fields}
      schema={addScheduleBody}
      initialValues={{
        name: schedule?.name ?? '',
        playlist_id: schedule?.playlist_id,
        priority: schedule?.priority ?? 0,
        date_from: schedule?.date_from ?? '',
        date_to: schedule?.date_to ?? '',
        weekdays: daysOf(schedule?.weekdays ?? WEEKDAY_BITS.all),
        time_from: schedule?.time_from ?? '00:00',
        time_to: schedule?.time_to ?? '00:00',
        emergency: schedule?.emergency ?? false,
        player_ids: schedule?.player_ids ?? [],
        group_ids: schedule?.group_ids ?? [],
      }}
      submit={(v) => {
        const body = {
          name: v.name.trim(),
          playlist_id: v.playlist_id!,
          priority: v.priority ?? 0,
          date_from: v.date_from?.trim() || null,
          date_to: v.date_to?.trim() || null,
          weekdays: bitsOf(v.weekdays ?? []) || WEEKDAY_BITS.all,
          time_from: v.time_from?.trim() || '00:00',
          time_to: v.time_to?.trim() || '00:00',
          emergency: !!v.emergency,
          player_ids: v.player_ids ?? [],
          group_ids: v.group_ids ?? [],
        };
        return schedule ? updateSchedule({ id: schedule.id, ...body }) : addSchedule(body);
      }}
      success="已保存并下发给所选播放器"
      onSaved={onSaved}
      onClosed={onClosed}
      footer={
        emergency ? (
          <Alert
            type="warning"
            showIcon
            title="保存后所选播放器将立即切换到该播放列表，直到撤销此紧急插播。"
          />
        ) : undefined
      }
    />
  );
}

const FILTERS: FilterFields<{ keywords: string }> = {
  keywords: text({ placeholder: '名称', width: 220, search: true }),
};

const COLUMNS: ListColumn<ScheduleRow>[] = [
  {
    title: '名称',
    dataIndex: 'name',
    width: 170,
    ellipsis: true,
    card: false,
    render: (v: string, s) => (
      <>
        {s.emergency && <Tag color="red">紧急</Tag>}
        {v}
      </>
    ),
  },
  { title: '播放列表', dataIndex: 'playlist_name', width: 140, ellipsis: true },
  {
    title: '时间',
    key: 'when',
    width: 230,
    render: (_, s) =>
      s.emergency
        ? '立即，直到撤销'
        : `${s.date_from ?? '不限'} ~ ${s.date_to ?? '不限'}，${weekdaysText(s.weekdays)} ${windowText(s.time_from, s.time_to)}`,
  },
  { title: '优先级', dataIndex: 'priority', width: 80, from: 'lg' },
  {
    title: '播放器',
    key: 'screens',
    ellipsis: true,
    render: (_, s) => [s.players, s.groups && `分组：${s.groups}`].filter(Boolean).join('；') || '—',
  },
];

/** 排期: playlists on screens by dates, weekdays and times; emergency notices; 发布. */
export function SchedulesTab() {
  const [busy, setBusy] = useState(false);
  const list = useListQuery({
    key: ['media', 'schedules'],
    filters: FILTERS,
    param: 'schedule.',
    load: (f, paging) => listSchedules({ keywords: f.keywords.trim() || undefined, ...paging }),
  });
  const publishAll = async () => {
    setBusy(true);
    await attempt(() => publish(), '已向排期中的播放器下发播放清单');
    setBusy(false);
  };
  return (
    <>
      <Button loading={busy} onClick={() => void publishAll()} style={{ marginBottom: 12 }}>
        全部重新发布
      </Button>
      <EntityList
        list={list}
        columns={COLUMNS}
        add="新增排期"
        empty={list.filtered ? '没有符合条件的排期' : '暂无排期'}
        remove={{
          title: '撤销排期',
          question: (s) => `确定撤销排期「${s.name}」吗？相关播放器将立即收到新的播放清单。`,
          update: updateSchedule,
          done: '已撤销',
        }}
        dialog={(schedule, props) => <ScheduleDialog schedule={schedule} {...props} />}
      />
    </>
  );
}
