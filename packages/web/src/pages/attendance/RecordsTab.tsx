import { DownloadOutlined } from '@ant-design/icons';
import {
  ATT_DAY_STATUS,
  ATT_DAY_STATUS_KEYS,
  ATT_CORRECTABLE,
  ATT_NOT_YET,
  type AttDayStatus,
  type DayRecordRow,
  type SummaryDepartmentRow,
  type SummaryEmployeeRow,
} from '@se/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Flex,
  Segmented,
  Spin,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableProps,
} from 'antd';
import { DatePicker } from '../../components/pickers.ts';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useRef, useState } from 'react';
import {
  correctRecord,
  listRecords,
  summaryDepartments,
  summaryEmployees,
} from '../../api/attendance-rules.ts';
import { startExport } from '../../api/downloads.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import {
  nowUtc8,
  ConfirmButton,
  ListTable,
  ListToolbar,
  RowAction,
  select,
  text,
  useDialog,
  useListQuery,
  type FilterField,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { useECharts } from '../../live/use-echarts.ts';
import { DepartmentSelect } from './DepartmentSelect.tsx';

const DAY = 'YYYY-MM-DD';

const STATUS_COLORS: Record<AttDayStatus, string> = {
  normal: 'green',
  late: 'orange',
  early: 'gold',
  missing: 'volcano',
  absent: 'red',
  rest: 'default',
  unscheduled: 'default',
  pending: 'blue',
};

/** 迟到 12 分钟 · 缺卡 1 次: every finding of a day, not only its main status. */
export function resultWords(
  r: Pick<DayRecordRow, 'status' | 'late_minutes' | 'early_minutes' | 'missing'> & { present?: boolean },
): string[] {
  // Provisional (the shift's windows are still open): 未到 until a first punch, then 进行中.
  if (r.status === 'pending') {
    const now = r.present ? ATT_DAY_STATUS.pending : ATT_NOT_YET;
    return r.late_minutes > 0 ? [now, `迟到 ${r.late_minutes} 分钟`] : [now];
  }
  if (r.status === 'rest' || r.status === 'unscheduled' || r.status === 'absent' || r.status === 'normal') {
    return [ATT_DAY_STATUS[r.status]];
  }
  const out: string[] = [];
  if (r.late_minutes > 0) out.push(`迟到 ${r.late_minutes} 分钟`);
  if (r.early_minutes > 0) out.push(`早退 ${r.early_minutes} 分钟`);
  if (r.missing > 0) out.push(`缺卡 ${r.missing} 次`);
  return out.length ? out : [ATT_DAY_STATUS[r.status]];
}

function ResultTags({ record }: { record: DayRecordRow }) {
  return (
    <Flex wrap gap={4}>
      {resultWords(record).map((w) => (
        <Tag key={w} color={STATUS_COLORS[record.status]} style={{ marginInlineEnd: 0 }}>
          {w}
        </Tag>
      ))}
      {record.corrected && (
        <Tooltip title={`原结果：${resultWords(record.computed).join('，')}；说明：${record.note}`}>
          <Tag color="blue" style={{ marginInlineEnd: 0 }}>
            已更正
          </Tag>
        </Tooltip>
      )}
    </Flex>
  );
}

function Punches({ record }: { record: DayRecordRow }) {
  if (record.status === 'unscheduled') return <Typography.Text type="secondary">—</Typography.Text>;
  const two = record.decided.length > 2;
  return (
    <Flex wrap gap={6}>
      {record.decided.map((d) => (
        <span key={`${d.segment}${d.kind}`}>
          {d.kind === 'in' ? '上班' : '下班'}
          {two ? d.segment + 1 : ''}{' '}
          {d.at ? (
            <Typography.Text>{d.at.slice(d.at.slice(0, 10) === record.day ? 11 : 5, 16)}</Typography.Text>
          ) : record.status === 'pending' ? (
            <Typography.Text type="secondary">待打卡</Typography.Text>
          ) : (
            <Typography.Text type="danger">未打卡</Typography.Text>
          )}
        </span>
      ))}
    </Flex>
  );
}

type DayRange = [Dayjs, Dayjs];

/** Whole days, never empty: this month up to today unless chosen. */
const dayRangeField: FilterField<DayRange> = {
  initial: [nowUtc8().startOf('month'), nowUtc8()],
  encode: (r) => `${r[0].format(DAY)}~${r[1].format(DAY)}`,
  decode: (s) => {
    const [a, b] = s.split('~').map((x) => dayjs(x, DAY));
    return a?.isValid() && b?.isValid() ? [a, b] : [nowUtc8().startOf('month'), nowUtc8()];
  },
  render: ({ value, onChange }) => (
    <DatePicker.RangePicker
      value={value}
      allowClear={false}
      onChange={(r) => r?.[0] && r[1] && onChange([r[0], r[1]])}
      placeholder={['开始日期', '结束日期']}
      aria-label="日期范围"
      style={{ width: 260 }}
    />
  ),
};

const departmentField: FilterField<number | undefined> = {
  initial: undefined,
  encode: (v) => (v ? String(v) : undefined),
  decode: (s) => (Number(s) > 0 ? Number(s) : undefined),
  render: ({ value, onChange, mobile }) => (
    <DepartmentSelect
      value={value}
      onChange={onChange}
      placeholder="部门（含下级）"
      allowClear
      style={{ width: mobile ? '100%' : 200 }}
    />
  ),
};

interface RecordFilters {
  range: DayRange;
  department: number | undefined;
  status: AttDayStatus | undefined;
  keywords: string;
}

const FILTERS: FilterFields<RecordFilters> = {
  range: dayRangeField,
  department: departmentField,
  status: select({
    options: ATT_DAY_STATUS_KEYS.map((k) => ({ value: k, label: ATT_DAY_STATUS[k] })),
    placeholder: '结果',
    width: 110,
  }),
  keywords: text({ placeholder: '姓名或工号', width: 160 }),
};

const COLUMNS: ListColumn<DayRecordRow>[] = [
  { title: '日期', dataIndex: 'day', width: 110, card: false },
  { title: '工号', dataIndex: 'employee_number', width: 90, from: 'lg' },
  { title: '姓名', dataIndex: 'employee_name', width: 100 },
  { title: '部门', dataIndex: 'department_name', width: 120, from: 'lg' },
  {
    title: '班次',
    dataIndex: 'scheme_name',
    width: 100,
    render: (v: string) => v || <Typography.Text type="secondary">未排班</Typography.Text>,
  },
  { title: '结果', key: 'result', width: 220, render: (_, r) => <ResultTags record={r} /> },
  { title: '打卡', key: 'punches', render: (_, r) => <Punches record={r} /> },
];

interface CorrectValues {
  status: AttDayStatus;
  late_minutes: number;
  early_minutes: number;
  missing: number;
  note: string;
}

function CorrectDialog({ record, onSaved, onClosed }: DialogProps<{ record: DayRecordRow }>) {
  return (
    <FormModal<CorrectValues, DayRecordRow>
      title={`更正考勤：${record.employee_name} ${record.day}`}
      width={520}
      initialValues={{
        status: record.status,
        late_minutes: record.late_minutes,
        early_minutes: record.early_minutes,
        missing: record.missing,
        note: '',
      }}
      fields={[
        {
          name: 'status',
          label: '结果',
          kind: 'select',
          options: ATT_CORRECTABLE.filter((k) => k !== 'unscheduled').map((k) => ({
            value: k,
            label: ATT_DAY_STATUS[k],
          })),
          rules: [{ required: true, message: '请选择结果' }],
        },
        {
          name: 'late_minutes',
          label: '迟到分钟',
          kind: 'number',
          span: 8,
          props: { min: 0, max: 1440 },
          hidden: (v) => !['late', 'missing'].includes(v.status),
        },
        {
          name: 'early_minutes',
          label: '早退分钟',
          kind: 'number',
          span: 8,
          props: { min: 0, max: 1440 },
          hidden: (v) => !['late', 'early', 'missing'].includes(v.status),
        },
        {
          name: 'missing',
          label: '缺卡次数',
          kind: 'number',
          span: 8,
          props: { min: 1, max: 4 },
          hidden: (v) => v.status !== 'missing',
        },
        {
          name: 'note',
          label: '更正说明',
          kind: 'textarea',
          required: true,
          maxLength: 200,
          rules: [{ required: true, whitespace: true, message: '请填写更正说明' }],
          placeholder: '如：外出办事，已补签',
        },
      ]}
      footer={
        <Typography.Text type="secondary">
          原计算结果：{resultWords(record.computed).join('，')}（更正后仍保留，可撤销）
        </Typography.Text>
      }
      submit={(v) =>
        correctRecord({
          employee_id: record.employee_id,
          day: record.day,
          status: v.status,
          late_minutes: v.late_minutes ?? 0,
          early_minutes: v.early_minutes ?? 0,
          missing: v.missing ?? 0,
          note: v.note,
        })
      }
      success="考勤已更正"
      onSaved={() => onSaved()}
      onClosed={onClosed}
    />
  );
}

function DailyResults() {
  const list = useListQuery({
    key: ['attendance', 'records'],
    filters: FILTERS,
    param: 'record.',
    load: (f, paging) =>
      listRecords({
        start: f.range[0].format(DAY),
        end: f.range[1].format(DAY),
        department_id: f.department,
        status: f.status,
        keywords: f.keywords.trim() || undefined,
        ...paging,
      }),
  });
  const correcting = useDialog<{ record: DayRecordRow }>();
  return (
    <>
      <ListToolbar list={list} />
      <ListTable
        list={list}
        columns={COLUMNS}
        rowKey="id"
        empty={list.filtered ? '没有符合条件的考勤记录' : '暂无考勤记录'}
        cardTitle={(r) => `${r.employee_name} ${r.day}`}
        actionsWidth={150}
        actions={(r) => (
          <Flex wrap>
            {r.status !== 'unscheduled' && (
              <RowAction onClick={() => correcting.open({ record: r })}>更正</RowAction>
            )}
            {r.corrected && (
              <ConfirmButton
                title="撤销更正"
                description="恢复为按打卡计算的结果吗？"
                okText="撤销"
                onConfirm={async () => {
                  const o = await attempt(
                    () => correctRecord({ employee_id: r.employee_id, day: r.day, revert: true }),
                    '已撤销更正',
                  );
                  if (o.ok) list.refresh();
                }}
              >
                撤销更正
              </ConfirmButton>
            )}
          </Flex>
        )}
      />
      {correcting.target && (
        <CorrectDialog record={correcting.target.record} onSaved={list.refresh} onClosed={correcting.close} />
      )}
    </>
  );
}

const COUNT_COLUMNS = [
  { title: '应出勤', dataIndex: 'days_due', width: 80 },
  { title: '出勤', dataIndex: 'days_present', width: 70 },
  { title: '迟到次数', dataIndex: 'late_count', width: 90 },
  { title: '迟到分钟', dataIndex: 'late_minutes', width: 90 },
  { title: '早退次数', dataIndex: 'early_count', width: 90 },
  { title: '早退分钟', dataIndex: 'early_minutes', width: 90 },
  { title: '缺卡天数', dataIndex: 'missing_count', width: 90 },
  { title: '旷工天数', dataIndex: 'absent_count', width: 90 },
] as const;

const EMPLOYEE_COLUMNS: ListColumn<SummaryEmployeeRow>[] = [
  { title: '工号', dataIndex: 'employee_number', width: 90 },
  { title: '姓名', dataIndex: 'employee_name', width: 100 },
  { title: '部门', dataIndex: 'department_name', width: 120, from: 'lg' },
  ...COUNT_COLUMNS.map((c) => ({ ...c })),
  { title: '休息', dataIndex: 'rest_days', width: 70, from: 'lg' },
  { title: '未排班', dataIndex: 'unscheduled_days', width: 80, from: 'lg' },
];

type Days = {
  day: string;
  due: number;
  present: number;
  late: number;
  early: number;
  missing: number;
  absent: number;
}[];

function TrendChart({ days }: { days: Days }) {
  const box = useRef<HTMLDivElement>(null);
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 40, right: 16, top: 36, bottom: 28 },
      xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
      yAxis: { type: 'value', minInterval: 1, name: '人次' },
      series: [
        { name: '出勤', type: 'line', data: days.map((d) => d.present), smooth: true },
        {
          name: '迟到',
          type: 'bar',
          stack: 'x',
          data: days.map((d) => d.late),
          itemStyle: { color: '#fa8c16' },
        },
        {
          name: '早退',
          type: 'bar',
          stack: 'x',
          data: days.map((d) => d.early),
          itemStyle: { color: '#fadb14' },
        },
        {
          name: '缺卡',
          type: 'bar',
          stack: 'x',
          data: days.map((d) => d.missing),
          itemStyle: { color: '#fa541c' },
        },
        {
          name: '旷工',
          type: 'bar',
          stack: 'x',
          data: days.map((d) => d.absent),
          itemStyle: { color: '#f5222d' },
        },
      ],
    }),
    [days],
  );
  const state = useECharts(box, option, { update: { notMerge: true } });
  return (
    <Spin spinning={state === 'loading'}>
      {state === 'failed' ? (
        <Empty description="图表加载失败，请刷新页面重试" />
      ) : (
        <div ref={box} role="img" aria-label="每日考勤走势" style={{ width: '100%', height: 280 }} />
      )}
    </Spin>
  );
}

function MonthlySummary() {
  const [month, setMonth] = useState<Dayjs>(() => nowUtc8().startOf('month'));
  const [department, setDepartment] = useState<number | undefined>();
  const m = month.format('YYYY-MM');
  const deps = useQuery({
    queryKey: ['attendance', 'summary-departments', m, department],
    queryFn: () => loadOrThrow(() => summaryDepartments({ month: m, department_id: department })),
    placeholderData: keepPreviousData,
  });
  const employees = useListQuery({
    key: ['attendance', 'summary-employees', m, department],
    filters: { keywords: text({ placeholder: '姓名或工号', width: 160 }) },
    param: 'summary.',
    load: (f, paging) =>
      summaryEmployees({
        month: m,
        department_id: department,
        keywords: f.keywords.trim() || undefined,
        ...paging,
      }),
  });
  const exportAs = (name: string, params: Record<string, unknown>) =>
    attempt(() => startExport(name, params), '已加入下载中心，完成后在下载中心下载');
  const depColumns: TableProps<SummaryDepartmentRow>['columns'] = [
    { title: '部门', dataIndex: 'name', width: 160 },
    { title: '人数', dataIndex: 'employees', width: 70 },
    ...COUNT_COLUMNS.map((c) => ({ ...c })),
  ];
  const tree = useMemo(() => nestSummary(deps.data?.list ?? []), [deps.data]);
  return (
    <Flex vertical gap={16}>
      <Flex wrap gap={8} align="center">
        <DatePicker
          picker="month"
          value={month}
          allowClear={false}
          onChange={(v) => v && setMonth(v.startOf('month'))}
          aria-label="月份"
        />
        <DepartmentSelect
          value={department}
          onChange={setDepartment}
          placeholder="全部部门"
          allowClear
          style={{ width: 200 }}
        />
      </Flex>
      <Card size="small" title={`${m} 每日走势`}>
        {deps.data ? <TrendChart days={deps.data.days} /> : <Spin />}
      </Card>
      <Card
        size="small"
        title="按部门（含下级部门）"
        extra={
          <Button
            icon={<DownloadOutlined />}
            onClick={() =>
              void exportAs('attendance-summary-departments', { month: m, department_id: department })
            }
          >
            导出
          </Button>
        }
      >
        <Table<SummaryDepartmentRow & { children?: unknown[] }>
          rowKey="department_id"
          size="small"
          loading={deps.isLoading}
          dataSource={tree}
          columns={depColumns}
          pagination={false}
          expandable={{ defaultExpandAllRows: true }}
          scroll={{ x: 1000 }}
          locale={{ emptyText: '暂无部门' }}
        />
      </Card>
      <Card
        size="small"
        title="按员工"
        extra={
          <Button
            icon={<DownloadOutlined />}
            onClick={() =>
              void exportAs('attendance-summary-employees', {
                month: m,
                department_id: department,
                keywords: employees.applied.keywords.trim() || undefined,
              })
            }
          >
            导出
          </Button>
        }
      >
        <ListToolbar list={employees} />
        <ListTable
          list={employees}
          columns={EMPLOYEE_COLUMNS}
          rowKey="employee_id"
          empty="这个月没有考勤记录"
          cardTitle={(r) => `${r.employee_name}（${r.employee_number}）`}
        />
      </Card>
    </Flex>
  );
}

type SummaryNode = SummaryDepartmentRow & { children?: SummaryNode[] };

function nestSummary(rows: SummaryDepartmentRow[]): SummaryNode[] {
  const nodes = new Map<number, SummaryNode>(rows.map((r) => [r.department_id, { ...r }]));
  const roots: SummaryNode[] = [];
  for (const r of rows) {
    const n = nodes.get(r.department_id)!;
    const parent = r.parent_id === null ? undefined : nodes.get(r.parent_id);
    if (parent) (parent.children ??= []).push(n);
    else roots.push(n);
  }
  return roots;
}

/** /ci-record: each employee's daily result with the punches that decided it, and the monthly summary. */
export function RecordsTab() {
  const [view, setView] = useState<'daily' | 'monthly'>('daily');
  return (
    <Flex vertical gap={12}>
      <Segmented
        value={view}
        onChange={(v) => setView(v as 'daily' | 'monthly')}
        options={[
          { value: 'daily', label: '每日考勤' },
          { value: 'monthly', label: '月度汇总' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {view === 'daily' ? <DailyResults /> : <MonthlySummary />}
    </Flex>
  );
}
