import { PLAN_TRIGGERS, addPlanBody, type PlanRow, type PlanTrigger } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Form, Progress, Select, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { addPlan, listPlanAssignees, listPlans, updatePlan } from '../../api/maintenance.ts';
import { EntityList } from '../../components/EntityList.tsx';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { loadOrThrow } from '../../components/feedback.ts';
import {
  nowUtc8,
  SERVER_TIME,
  select,
  text,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { useDebounced } from '../../components/use-debounced.ts';
import { ToiletPicker, toiletFilter, type PickedToilet } from '../comments/ToiletPicker.tsx';
import { EquipmentTypeSelect, TeamSelect, equipmentFilter } from './pickers.tsx';

const TRIGGER_OPTIONS = Object.entries(PLAN_TRIGGERS).map(([value, t]) => ({ value, label: t.label }));
const DUE_OPTIONS = [
  { value: 'week', label: '本周到期' },
  { value: 'overdue', label: '已超期' },
];

interface Filters {
  keywords: string;
  due: string | undefined;
  trigger: string | undefined;
  equipment: number | undefined;
  toilet: PickedToilet | null;
}

/** The list has no 查询 button (EntityList): a choice applies at once, the keyword on Enter. */
const FILTERS: FilterFields<Filters> = {
  keywords: text({ placeholder: '计划名称 / 序列号 / 厕所', label: '关键字', width: 200 }),
  due: select({ options: DUE_OPTIONS, placeholder: '到期', width: 110, instant: true }),
  trigger: select({ options: TRIGGER_OPTIONS, placeholder: '触发方式', width: 130, instant: true }),
  equipment: { ...equipmentFilter, instant: true },
  toilet: { ...toiletFilter, instant: true },
};

const unitOf = (trigger: string) => PLAN_TRIGGERS[trigger as PlanTrigger] ?? PLAN_TRIGGERS.days;

/** Every 30 days; every 500 uses (使用人次). */
export const period = (p: PlanRow) => {
  const t = unitOf(p.trigger);
  return p.trigger === 'days' ? `每 ${p.every} ${t.unit}` : `每 ${p.every} ${t.unit}（${t.label.slice(1)}）`;
};

/** What a plan covers: one device, one toilet, or every device of its type. */
export const coverage = (p: PlanRow) =>
  p.ser_num || p.toilet_name || `全部${p.equipment_type_name}（${p.targets} 台）`;

/** When the next order opens: a date (days plans) or how far the usage has come. */
function NextDue({ p }: { p: PlanRow }) {
  if (p.trigger === 'days') return <>{p.next_due_at?.slice(0, 16) ?? '—'}</>;
  const pct = Math.min(100, Math.round((p.progress ?? 0) * 100));
  return (
    <Progress
      percent={pct}
      size="small"
      status={pct >= 100 ? 'exception' : 'normal'}
      format={() => `${pct}%`}
      aria-label="用量进度"
    />
  );
}

/** 已超期, 本周到期, or the orders still open. */
export function DueTag({ p }: { p: PlanRow }) {
  if (!p.enabled) return <Tag>已停用</Tag>;
  if (p.overdue) return <Tag color="red">已超期</Tag>;
  if (p.due_soon) return <Tag color="orange">本周到期</Tag>;
  if (p.open_orders) return <Tag color="blue">保养中</Tag>;
  return <Tag color="green">正常</Tag>;
}

const COLUMNS: ListColumn<PlanRow>[] = [
  { title: '计划', dataIndex: 'name', width: 160, card: false },
  { title: '对象', key: 'what', width: 170, render: (_, p) => coverage(p) },
  {
    title: '周期',
    key: 'every',
    width: 150,
    render: (_, p) => period(p),
  },
  { title: '下次保养', key: 'next', width: 150, render: (_, p) => <NextDue p={p} /> },
  { title: '状态', key: 'due', width: 90, render: (_, p) => <DueTag p={p} /> },
  {
    title: '负责人',
    key: 'assignee',
    width: 110,
    render: (_, p) => (p.team_id ? `班组 ${p.team_name}` : p.assignee_name || '未指定'),
  },
  { title: '检查项', key: 'steps', width: 80, from: 'xl', render: (_, p) => `${p.checklist.length} 项` },
  { title: '创建人', dataIndex: 'user_name', width: 100, from: 'xl' },
  { title: '备注', dataIndex: 'note', ellipsis: true, from: 'xl' },
];

type Cover = 'type' | 'device' | 'toilet';
const COVER_OPTIONS = [
  { value: 'device', label: '单台设备' },
  { value: 'toilet', label: '单个厕所' },
  { value: 'type', label: '该类型的全部设备' },
];

interface PlanValues {
  name: string;
  cover: Cover;
  equipment_type_id?: number;
  ser_num?: string;
  toilet?: PickedToilet | null;
  trigger: PlanTrigger;
  every?: number;
  starts_at?: Dayjs | null;
  response_hours?: number;
  assignee_id?: number;
  team_id?: number;
  checklist: string;
  enabled: boolean;
  note: string;
}

/** The plan's assignee, among those who see what it covers (asked of the server as the form fills). */
function AssigneeSelect(props: { value?: number; onChange?: (v: number | undefined) => void }) {
  const cover = Form.useWatch<Cover>('cover');
  const serNum = useDebounced((Form.useWatch<string | undefined>('ser_num') ?? '').trim(), 300);
  const toilet = Form.useWatch<PickedToilet | null | undefined>('toilet');
  const q =
    cover === 'device'
      ? serNum
        ? { ser_num: serNum }
        : null
      : cover === 'toilet'
        ? toilet
          ? { toilet_id: toilet.id }
          : null
        : {};
  const people = useQuery({
    queryKey: ['maintenance', 'plan-assignees', q],
    queryFn: () => loadOrThrow(() => listPlanAssignees(q!)),
    enabled: q !== null,
    retry: false,
  });
  return (
    <Select<number>
      value={props.value}
      onChange={(v) => props.onChange?.(v ?? undefined)}
      allowClear
      options={(people.data ?? []).map((u) => ({
        value: u.id,
        label: u.company_name ? `${u.user_name}（${u.company_name}）` : u.user_name,
      }))}
      loading={people.isFetching}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={q === null ? '先选择设备或厕所' : '不指定则保养单待派单'}
      aria-label="负责人"
    />
  );
}

/** Whether the unit of the interval box follows the chosen trigger. */
function EveryUnit() {
  const trigger = Form.useWatch<PlanTrigger | undefined>('trigger') ?? 'days';
  return <Typography.Text type="secondary">{unitOf(trigger).unit}</Typography.Text>;
}

export function PlanDialog({ row, onSaved, onClosed }: DialogProps<{ row: PlanRow | null }>) {
  const editing = row !== null;
  const initial: PlanValues = row
    ? {
        name: row.name,
        cover: row.device_id ? 'device' : row.toilet_id ? 'toilet' : 'type',
        equipment_type_id: row.equipment_type_id,
        ser_num: row.ser_num,
        toilet: row.toilet_id ? { id: row.toilet_id, name: row.toilet_name } : null,
        trigger: row.trigger as PlanTrigger,
        every: row.every,
        starts_at: dayjs(row.starts_at),
        response_hours: row.response_hours,
        assignee_id: row.assignee_id ?? undefined,
        team_id: row.team_id ?? undefined,
        checklist: row.checklist.join('\n'),
        enabled: row.enabled,
        note: row.note,
      }
    : {
        name: '',
        cover: 'device',
        trigger: 'days',
        every: 30,
        starts_at: nowUtc8().startOf('minute'),
        response_hours: 72,
        checklist: '',
        enabled: true,
        note: '',
      };
  return (
    <FormModal<PlanValues, { id: number }>
      title={row ? `编辑保养计划 ${row.name}` : '新增保养计划'}
      width={600}
      name="plan"
      schema={addPlanBody}
      initialValues={initial}
      fields={[
        { name: 'name', label: '计划名称', required: true, maxLength: 50 },
        {
          name: 'cover',
          label: '保养对象',
          kind: 'select',
          options: COVER_OPTIONS,
          span: 12,
          disabled: editing,
          rules: [],
        },
        {
          name: 'equipment_type_id',
          label: '设备类型',
          required: true,
          span: 12,
          disabled: editing,
          render: () => <EquipmentTypeSelect width="100%" />,
        },
        {
          name: 'ser_num',
          label: '设备序列号',
          required: true,
          maxLength: 64,
          disabled: editing,
          hidden: (v) => v.cover !== 'device',
          rules: editing ? [] : [{ required: true, whitespace: true, message: '请输入设备序列号' }],
        },
        {
          name: 'toilet',
          label: '厕所',
          required: true,
          hidden: (v) => v.cover !== 'toilet',
          disabled: editing,
          rules: editing ? [] : [{ required: true, message: '请选择厕所' }],
          render: () => <ToiletField disabled={editing} />,
        },
        { name: 'trigger', label: '触发方式', kind: 'select', options: TRIGGER_OPTIONS, span: 12 },
        {
          name: 'every',
          label: '间隔',
          kind: 'number',
          required: true,
          span: 12,
          props: { min: 1, addonAfter: <EveryUnit /> },
          extra: '运行时长、人次和用液量按设备上报的数据累计',
        },
        {
          name: 'starts_at',
          label: '开始时间',
          kind: 'date',
          span: 12,
          rules: [],
          props: { showTime: { format: 'HH:mm' }, format: 'YYYY-MM-DD HH:mm', allowClear: false },
          extra: '按周期：首次保养的时间；按用量：从此时开始累计',
        },
        {
          name: 'response_hours',
          label: '完成时限（小时）',
          kind: 'number',
          required: true,
          span: 12,
          props: { min: 1, max: 720 },
        },
        {
          name: 'team_id',
          label: '维修班组',
          rules: [],
          render: () => <TeamSelect width="100%" placeholder="不按班组指派" />,
          extra: '按班组指派：保养单派给班组负责人，并通知全体成员',
        },
        {
          name: 'assignee_id',
          label: '负责人',
          rules: [],
          hidden: (v) => v.team_id !== undefined,
          render: () => <AssigneeSelect />,
        },
        {
          name: 'checklist',
          label: '检查项',
          kind: 'textarea',
          placeholder: '每行一项，例如：\n补充香薰液\n清洗雾化片',
          extra: '保养单按这些检查项逐项勾选，全部完成后才能完工',
        },
        { name: 'enabled', label: '启用', kind: 'switch', span: 12 },
        { name: 'note', label: '备注', kind: 'textarea', maxLength: 200 },
      ]}
      submit={(v) => {
        const common = {
          name: v.name,
          trigger: v.trigger,
          every: v.every!,
          starts_at: v.starts_at ? v.starts_at.format(SERVER_TIME) : undefined,
          response_hours: v.response_hours,
          checklist: v.checklist
            .split('\n')
            .map((s) => s.trim())
            .filter(Boolean),
          enabled: v.enabled,
          note: v.note,
        };
        // A team or a person: the team wins when both were picked.
        const team = v.team_id;
        const person = team === undefined ? v.assignee_id : undefined;
        if (row)
          return updatePlan({ id: row.id, ...common, assignee_id: person ?? null, team_id: team ?? null });
        return addPlan({
          ...common,
          equipment_type_id: v.equipment_type_id!,
          assignee_id: person,
          team_id: team,
          ser_num: v.cover === 'device' ? v.ser_num?.trim() : undefined,
          toilet_id: v.cover === 'toilet' ? v.toilet?.id : undefined,
        });
      }}
      success={row ? '计划已保存' : '计划已新增'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

/** The toilet picker as a form widget (value/onChange from the Form.Item). */
function ToiletField(props: {
  value?: PickedToilet | null;
  onChange?: (t: PickedToilet | null) => void;
  disabled?: boolean;
}) {
  if (props.disabled) return <Typography.Text>{props.value?.name}</Typography.Text>;
  return (
    <ToiletPicker
      value={props.value ?? null}
      onChange={(t) => props.onChange?.(t)}
      style={{ width: '100%' }}
    />
  );
}

/** 保养计划 (a tab of /maintenance-records): plans due this week and overdue first. */
export function PlansTab() {
  const list = useListQuery({
    key: ['maintenance', 'plans'],
    filters: FILTERS,
    param: 'plan.',
    load: (f, paging) =>
      listPlans({
        keywords: f.keywords.trim() || undefined,
        due: f.due as 'week' | 'overdue' | undefined,
        trigger: f.trigger as PlanTrigger | undefined,
        equipment_type_id: f.equipment,
        toilet_id: f.toilet?.id,
        ...paging,
      }),
  });
  return (
    <EntityList
      list={list}
      columns={COLUMNS}
      add="新增保养计划"
      empty={list.filtered ? '没有符合条件的保养计划' : '暂无保养计划'}
      cardExtra={(p) => <DueTag p={p} />}
      locked={(p) => (p.editable ? undefined : '上级账号创建')}
      remove={{
        title: '删除保养计划',
        question: (p) => `确定删除保养计划「${p.name}」吗？已生成的保养单不受影响。`,
        update: updatePlan,
      }}
      dialog={(row, props) => <PlanDialog row={row} {...props} />}
    />
  );
}
