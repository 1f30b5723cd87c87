import {
  HOLIDAY_KINDS,
  ISO_WEEKDAY_LABELS,
  shiftTimeline,
  type HolidayKind,
  type HolidayRow,
  type SchemeRow,
} from '@se/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Select, Table, Tag, TreeSelect, Typography, type TableProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { listEmployees } from '../../api/attendance.ts';
import {
  addScheme,
  assignScheme,
  listHolidays,
  listSchemes,
  resetHoliday,
  setHoliday,
  updateScheme,
} from '../../api/attendance-rules.ts';
import { EntityList } from '../../components/EntityList.tsx';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import {
  nowUtc8,
  ConfirmButton,
  RowAction,
  text,
  useDialog,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { nest, useDepartments } from './departments.ts';

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const WEEKDAY_OPTIONS = Object.entries(ISO_WEEKDAY_LABELS).map(([v, label]) => ({ value: Number(v), label }));

/** '09:00–18:00', '22:00–次日06:00', two segments joined with '，'. */
export function shiftText(segments: SchemeRow['segments']): string {
  const t = shiftTimeline(segments);
  const when = (m: number, hhmm: string) => (m >= 1440 ? `次日${hhmm}` : hhmm);
  return segments.map((s, i) => `${when(t[i]!.start, s.start)}–${when(t[i]!.end, s.end)}`).join('，');
}

export function workdaysText(days: number[]): string {
  const k = [...days].sort().join(',');
  if (k === '1,2,3,4,5') return '周一至周五';
  if (k === '1,2,3,4,5,6') return '周一至周六';
  if (k === '1,2,3,4,5,6,7') return '每天';
  if (!days.length) return '无';
  return days.map((d) => ISO_WEEKDAY_LABELS[d as keyof typeof ISO_WEEKDAY_LABELS]).join('、');
}

const FILTERS: FilterFields<{ keywords: string }> = {
  keywords: text({ placeholder: '班次名称', width: 180 }),
};

const COLUMNS: ListColumn<SchemeRow>[] = [
  { title: '班次名称', dataIndex: 'name', width: 140 },
  { title: '上下班时间', key: 'shift', width: 200, render: (_, s) => shiftText(s.segments) },
  {
    title: '宽限',
    key: 'grace',
    width: 150,
    render: (_, s) => `迟到 ${s.late_grace} 分 / 早退 ${s.early_grace} 分`,
  },
  {
    title: '有效打卡',
    key: 'window',
    width: 190,
    from: 'lg',
    render: (_, s) => `上班前 ${s.earliest_in} 分起，下班后 ${s.latest_out} 分止`,
  },
  { title: '工作日', key: 'workdays', width: 140, render: (_, s) => workdaysText(s.workdays) },
  {
    title: '节假日',
    dataIndex: 'follow_holidays',
    width: 100,
    from: 'lg',
    render: (v: boolean) => (v ? '按法定休息' : '不区分'),
  },
  {
    title: '适用范围',
    key: 'applies',
    render: (_, s) =>
      s.departments.length === 0 && s.employee_count === 0 ? (
        <Typography.Text type="secondary">未分配</Typography.Text>
      ) : (
        <Flex wrap gap={4}>
          {s.departments.map((d) => (
            <Tag key={d.id} color="blue" style={{ marginInlineEnd: 0 }}>
              {d.name}
            </Tag>
          ))}
          {s.employee_count > 0 && <Tag style={{ marginInlineEnd: 0 }}>{s.employee_count} 名员工</Tag>}
        </Flex>
      ),
  },
];

interface SchemeValues {
  name: string;
  start1: string;
  end1: string;
  split: boolean;
  start2?: string;
  end2?: string;
  late_grace: number;
  early_grace: number;
  earliest_in: number;
  latest_out: number;
  workdays: number[];
  follow_holidays: boolean;
}

const timeRules = (label: string) => [
  { required: true, message: `请输入${label}` },
  { pattern: HHMM, message: `${label}格式应为 HH:mm，如 09:00` },
];
const minuteField = (name: keyof SchemeValues & string, label: string, extra?: string) => ({
  name,
  label,
  kind: 'number' as const,
  span: 12,
  extra,
  rules: [{ required: true, message: `请输入${label}` }],
  props: { min: 0, max: 720, addonAfter: '分钟' },
});

function SchemeDialog({ scheme, onSaved, onClosed }: DialogProps<{ scheme: SchemeRow | null }>) {
  const initial: SchemeValues = scheme
    ? {
        name: scheme.name,
        start1: scheme.segments[0]!.start,
        end1: scheme.segments[0]!.end,
        split: scheme.segments.length > 1,
        start2: scheme.segments[1]?.start,
        end2: scheme.segments[1]?.end,
        late_grace: scheme.late_grace,
        early_grace: scheme.early_grace,
        earliest_in: scheme.earliest_in,
        latest_out: scheme.latest_out,
        workdays: scheme.workdays,
        follow_holidays: scheme.follow_holidays,
      }
    : {
        name: '',
        start1: '09:00',
        end1: '18:00',
        split: false,
        late_grace: 5,
        early_grace: 5,
        earliest_in: 120,
        latest_out: 240,
        workdays: [1, 2, 3, 4, 5],
        follow_holidays: true,
      };
  const submit = (v: SchemeValues) => {
    const segments = [{ start: v.start1, end: v.end1 }];
    if (v.split && v.start2 && v.end2) segments.push({ start: v.start2, end: v.end2 });
    const body = {
      name: v.name,
      segments,
      late_grace: v.late_grace,
      early_grace: v.early_grace,
      earliest_in: v.earliest_in,
      latest_out: v.latest_out,
      workdays: v.workdays,
      follow_holidays: v.follow_holidays,
    };
    return scheme ? updateScheme({ id: scheme.id, ...body }) : addScheme(body);
  };
  const noSplit = (v: SchemeValues) => !v.split;
  return (
    <FormModal<SchemeValues, SchemeRow>
      title={scheme ? '编辑班次' : '新增班次'}
      width={620}
      initialValues={initial}
      fields={[
        {
          name: 'name',
          label: '班次名称',
          required: true,
          maxLength: 50,
          rules: [{ required: true, whitespace: true, message: '请输入班次名称' }],
        },
        {
          name: 'start1',
          label: '上班时间',
          span: 12,
          required: true,
          placeholder: '09:00',
          rules: timeRules('上班时间'),
        },
        {
          name: 'end1',
          label: '下班时间',
          span: 12,
          required: true,
          placeholder: '18:00',
          rules: timeRules('下班时间'),
          extra: '早于上班时间即为次日（跨零点的班次记在开始那天）',
        },
        { name: 'split', label: '分段班（上下班两次）', kind: 'switch' },
        {
          name: 'start2',
          label: '第二段上班',
          span: 12,
          placeholder: '14:00',
          hidden: noSplit,
          rules: timeRules('第二段上班时间'),
        },
        {
          name: 'end2',
          label: '第二段下班',
          span: 12,
          placeholder: '18:00',
          hidden: noSplit,
          rules: timeRules('第二段下班时间'),
        },
        minuteField('late_grace', '迟到宽限', '超过宽限才算迟到，迟到分钟从上班时间算起'),
        minuteField('early_grace', '早退宽限'),
        minuteField('earliest_in', '最早打卡', '上班前多少分钟起打卡有效'),
        minuteField('latest_out', '最晚打卡', '下班后多少分钟内打卡有效'),
        {
          name: 'workdays',
          label: '工作日',
          kind: 'select',
          options: WEEKDAY_OPTIONS,
          props: { mode: 'multiple' },
          rules: [{ required: true, message: '请选择工作日' }],
        },
        { name: 'follow_holidays', label: '法定节假日休息、调休日上班', kind: 'switch' },
      ]}
      submit={submit}
      success="班次已保存"
      onSaved={() => onSaved()}
      onClosed={onClosed}
    />
  );
}

interface AssignValues {
  department_ids: number[];
  employee_ids: number[];
}

/** Employees picked by name or number (several), searched on the server. */
function EmployeesPick({ value, onChange }: { value?: number[]; onChange?: (v: number[]) => void }) {
  const [keywords, setKeywords] = useState('');
  const { data, isFetching } = useQuery({
    queryKey: ['attendance', 'employee-multi-pick', keywords],
    queryFn: () =>
      loadOrThrow(() => listEmployees({ keywords: keywords || undefined, status: 1, page_size: 20 })),
  });
  const [known, setKnown] = useState<Record<number, string>>({});
  const options = (data?.list ?? []).map((e) => ({ value: e.id, label: `${e.name}（${e.number}）` }));
  const shown = [
    ...options,
    ...(value ?? [])
      .filter((id) => !options.some((o) => o.value === id))
      .map((id) => ({ value: id, label: known[id] ?? `#${id}` })),
  ];
  return (
    <Select<number[]>
      mode="multiple"
      value={value}
      onChange={(v, opts) => {
        const labels = { ...known };
        for (const o of ([] as { value: number; label: string }[]).concat(opts as never))
          labels[o.value] = o.label;
        setKnown(labels);
        onChange?.(v);
      }}
      showSearch={{ filterOption: false, onSearch: setKeywords }}
      options={shown}
      loading={isFetching}
      placeholder="搜索姓名或工号"
      aria-label="员工"
    />
  );
}

function DepartmentsPick({ value, onChange }: { value?: number[]; onChange?: (v: number[]) => void }) {
  const { data: rows = [], isLoading } = useDepartments();
  const tree = useMemo(() => nest(rows), [rows]);
  return (
    <TreeSelect
      multiple
      value={value}
      onChange={(v) => onChange?.(v as number[])}
      treeData={tree}
      loading={isLoading}
      placeholder="选择部门（下级部门随之继承）"
      aria-label="部门"
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
    />
  );
}

function AssignDialog({ scheme, onSaved, onClosed }: DialogProps<{ scheme: SchemeRow }>) {
  return (
    <FormModal<AssignValues, unknown>
      title={`分配班次：${scheme.name}`}
      width={560}
      initialValues={{ department_ids: [], employee_ids: [] }}
      fields={[
        {
          name: 'department_ids',
          label: '部门',
          render: () => <DepartmentsPick />,
          extra: '部门的下级部门没有自己的班次时沿用此班次',
        },
        {
          name: 'employee_ids',
          label: '员工',
          render: () => <EmployeesPick />,
          extra: '员工自己的班次优先于部门的班次',
        },
      ]}
      submit={(v) =>
        assignScheme({ scheme_id: scheme.id, department_ids: v.department_ids, employee_ids: v.employee_ids })
      }
      success="班次已分配，考勤结果将按新班次重算"
      onSaved={() => onSaved()}
      onClosed={onClosed}
    />
  );
}

/** /ci-scheme: the organisation's shift schemes and its holiday calendar. */
export function SchemesTab() {
  const list = useListQuery({
    key: ['attendance', 'schemes'],
    filters: FILTERS,
    param: 'scheme.',
    load: (f, paging) => listSchemes({ keywords: f.keywords.trim() || undefined, ...paging }),
  });
  const assigning = useDialog<{ scheme: SchemeRow }>();
  return (
    <Flex vertical gap={16}>
      <EntityList
        list={list}
        columns={COLUMNS}
        add="新增班次"
        empty={list.filtered ? '没有符合条件的班次' : '暂无班次，新增一个班次后分配给部门或员工'}
        remove={{
          title: '删除班次',
          question: (s) => `确定删除班次「${s.name}」吗？使用它的部门和员工将不再按此班次考勤。`,
          update: updateScheme,
        }}
        rowButtons={(s) => <RowAction onClick={() => assigning.open({ scheme: s })}>分配</RowAction>}
        actionsWidth={200}
        dialog={(scheme, props) => <SchemeDialog scheme={scheme} {...props} />}
      />
      {assigning.target && (
        <AssignDialog scheme={assigning.target.scheme} onSaved={list.refresh} onClosed={assigning.close} />
      )}
      <HolidayCalendar />
    </Flex>
  );
}

const KIND_COLORS: Record<HolidayKind, string> = { holiday: 'green', workday: 'orange', normal: 'default' };
const WEEK = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];

interface HolidayValues {
  day: Dayjs;
  kind: HolidayKind;
  name: string;
}

function HolidayDialog({ onSaved, onClosed }: DialogProps) {
  return (
    <FormModal<HolidayValues, unknown>
      title="设置日期"
      width={460}
      initialValues={{ day: nowUtc8(), kind: 'holiday', name: '' }}
      fields={[
        { name: 'day', label: '日期', kind: 'date', rules: [{ required: true, message: '请选择日期' }] },
        {
          name: 'kind',
          label: '类型',
          kind: 'select',
          options: Object.entries(HOLIDAY_KINDS).map(([value, label]) => ({ value, label })),
          rules: [{ required: true, message: '请选择类型' }],
          extra: '按排班：取消这一天的法定安排',
        },
        { name: 'name', label: '名称', maxLength: 50, placeholder: '如：公司年会' },
      ]}
      submit={(v) => setHoliday({ day: v.day.format('YYYY-MM-DD'), kind: v.kind, name: v.name ?? '' })}
      success="已保存，考勤结果将按新日历重算"
      onSaved={() => onSaved()}
      onClosed={onClosed}
    />
  );
}

function HolidayCalendar() {
  const [year, setYear] = useState(() => nowUtc8().year());
  const qc = useQueryClient();
  const key = ['attendance', 'holidays', year];
  const { data, isLoading } = useQuery({
    queryKey: key,
    queryFn: () => loadOrThrow(() => listHolidays(year)),
  });
  const [adding, setAdding] = useState(false);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['attendance'] });
  const columns: TableProps<HolidayRow>['columns'] = [
    { title: '日期', dataIndex: 'day', width: 120 },
    { title: '星期', key: 'week', width: 70, render: (_, h) => WEEK[dayjs(h.day).day()] },
    {
      title: '类型',
      dataIndex: 'kind',
      width: 100,
      render: (k: HolidayKind) => <Tag color={KIND_COLORS[k]}>{HOLIDAY_KINDS[k]}</Tag>,
    },
    { title: '名称', dataIndex: 'name' },
    {
      title: '来源',
      dataIndex: 'source',
      width: 90,
      render: (s: string) => (s === 'org' ? '本组织' : '法定'),
    },
    {
      title: '操作',
      key: 'op',
      width: 110,
      render: (_, h) =>
        h.source === 'org' ? (
          <ConfirmButton
            title="恢复法定安排"
            description={`取消本组织对 ${h.day} 的设置吗？`}
            okText="恢复"
            danger={false}
            onConfirm={async () => {
              if ((await attempt(() => resetHoliday(h.day), '已恢复法定安排')).ok) refresh();
            }}
          >
            恢复法定
          </ConfirmButton>
        ) : null,
    },
  ];
  const years = [year - 1, year, year + 1].map((y) => ({ value: y, label: `${y} 年` }));
  return (
    <Card
      size="small"
      title="节假日与调休"
      extra={
        <Flex gap={8}>
          <Select value={year} onChange={setYear} options={years} aria-label="年份" style={{ width: 110 }} />
          <Button type="primary" onClick={() => setAdding(true)}>
            设置日期
          </Button>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        法定节假日休息，调休上班日按工作日考勤（班次开启“法定节假日休息”时）。{year} 年的法定安排
        {data && data.list.some((h) => h.source === 'national') ? '已内置' : '尚未发布，可自行设置'}。
      </Typography.Paragraph>
      <Table<HolidayRow>
        rowKey="day"
        size="small"
        loading={isLoading}
        dataSource={data?.list ?? []}
        columns={columns}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        scroll={{ x: 600 }}
        locale={{ emptyText: '这一年没有节假日设置' }}
      />
      {adding && <HolidayDialog onSaved={refresh} onClosed={() => setAdding(false)} />}
    </Card>
  );
}
