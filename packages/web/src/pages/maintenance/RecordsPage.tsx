import { CameraOutlined, DownloadOutlined } from '@ant-design/icons';
import {
  EXPRESS_STATUS_LABELS,
  FAULT_SEVERITIES,
  courierLabel,
  RECORDS_EXPORT,
  RECORD_ACTIONS,
  RECORD_KINDS,
  RECORD_PHOTO_LIMITS,
  RECORD_STATUS_LABELS,
  completeBody,
  type RecordDetail,
  type RecordKind,
  type RecordRow,
} from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Checkbox,
  Descriptions,
  Flex,
  Image,
  Input,
  Select,
  Space,
  Statistic,
  Tabs,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { DeviceLink, ToiletLink } from '../../components/ObjectLinks.tsx';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  acceptRecord,
  assignRecord,
  cancelRecord,
  checkStep,
  completeRecord,
  getRecord,
  listAssignees,
  listRecords,
  maintenanceStats,
  photoUrl,
  rejectRecord,
  uploadPhoto,
  type RecordsQuery,
} from '../../api/maintenance.ts';
import { startExport } from '../../api/downloads.ts';
import { FormModal } from '../../components/FormModal.tsx';
import { MountedDrawer } from '../../components/MountedDrawer.tsx';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import {
  nowUtc8,
  ConfirmButton,
  ListView,
  RowAction,
  SERVER_TIME,
  check,
  dateRange,
  select,
  text,
  useDialog,
  useListQuery,
  type FilterFields,
  type ListColumn,
  type Range,
} from '../../components/list/index.ts';
import { toast } from '../../components/toast.ts';
import { useSession } from '../../session/store.ts';
import { toiletFilter, type PickedToilet } from '../comments/ToiletPicker.tsx';
import { SEVERITY_COLORS } from './catalogue.ts';
import { equipmentFilter, faultFilter, teamFilter } from './pickers.tsx';
import { compressPhoto, dataUrlBlob } from './photos.ts';
import { PlansTab } from './PlansTab.tsx';
import { TeamsTab } from './TeamsTab.tsx';

const STATUS_COLORS = ['gold', 'blue', 'purple', 'green', 'default'] as const;
const STATUS_OPTIONS = RECORD_STATUS_LABELS.map((label, value) => ({ value, label }));
const KIND_OPTIONS = Object.entries(RECORD_KINDS).map(([value, label]) => ({ value, label }));

interface Filters {
  keywords: string;
  status: number | undefined;
  kind: string | undefined;
  equipment: number | undefined;
  fault: number | undefined;
  toilet: PickedToilet | null;
  team: number | undefined;
  mine: boolean;
  overdue: boolean;
  range: Range;
}

const FILTERS: FilterFields<Filters> = {
  keywords: text({ placeholder: '编号 / 序列号 / 描述', label: '关键字', width: 200 }),
  status: select({ options: STATUS_OPTIONS, placeholder: '状态', width: 110 }),
  kind: select({ options: KIND_OPTIONS, placeholder: '类型', width: 90 }),
  equipment: equipmentFilter,
  fault: faultFilter,
  toilet: toiletFilter,
  team: teamFilter,
  range: dateRange({ time: true }),
  mine: check({ label: '我负责的' }),
  overdue: check({ label: '只看超时' }),
};

function recordsQuery(f: Filters, me: number): RecordsQuery {
  return {
    keywords: f.keywords.trim() || undefined,
    status: f.status,
    kind: f.kind as RecordKind | undefined,
    equipment_type_id: f.equipment,
    fault_type_id: f.fault,
    toilet_id: f.toilet?.id,
    assignee_id: f.mine ? me : undefined,
    team_id: f.team,
    overdue: f.overdue || undefined,
    begin: f.range?.[0]?.format(SERVER_TIME),
    end: f.range?.[1]?.format(SERVER_TIME),
  };
}

/** The response-time clock: time left, or how far past the deadline (red). */
export function Clock({ r }: { r: RecordRow }) {
  const open = r.status <= 2;
  const due = dayjs(r.due_at);
  const at = open ? nowUtc8() : dayjs(r.finished_at ?? r.due_at);
  const minutes = Math.abs(due.diff(at, 'minute'));
  const span =
    minutes >= 1440
      ? `${Math.floor(minutes / 1440)} 天 ${Math.floor((minutes % 1440) / 60)} 小时`
      : minutes >= 60
        ? `${Math.floor(minutes / 60)} 小时 ${minutes % 60} 分`
        : `${minutes} 分钟`;
  if (r.status === 4) return <Typography.Text type="secondary">—</Typography.Text>;
  if (r.overdue) return <Tag color="red">{open ? `已超时 ${span}` : `超时 ${span} 完成`}</Tag>;
  return open ? (
    <Tag color={minutes < 120 ? 'orange' : 'default'}>剩 {span}</Tag>
  ) : (
    <Tag color="green">按时完成</Tag>
  );
}

/**
 * What the record is about: the device (a link to it) and, below, the toilet it is in; else
 * the toilet (a link) and its part.
 */
function What({ r }: { r: RecordRow }) {
  if (r.ser_num) {
    const device = <DeviceLink kind={r.device_kind} id={r.device_id} serNum={r.ser_num} />;
    if (!r.toilet_name) return device;
    return (
      <Flex vertical>
        {device}
        <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis={{ tooltip: r.toilet_name }}>
          {r.toilet_name}
        </Typography.Text>
      </Flex>
    );
  }
  if (!r.toilet_name) return <>{r.part_name || '—'}</>;
  return (
    <>
      <ToiletLink id={r.toilet_id} name={r.toilet_name} />
      {r.part_name && ` ${r.part_name}`}
    </>
  );
}

/** Who handles the record, and the team (维修班组) it went to, if any. */
function Assignee({ r }: { r: RecordRow }) {
  const who = r.assignee_name || '未派单';
  if (!r.team_name) return <>{who}</>;
  return (
    <Flex vertical>
      {who}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        班组：{r.team_name}
      </Typography.Text>
    </Flex>
  );
}

const COLUMNS: ListColumn<RecordRow>[] = [
  { title: '编号', dataIndex: 'no', width: 100, card: false },
  {
    title: '状态',
    dataIndex: 'status',
    width: 90,
    // A 保养 order's kind under its status: side by side they overran the column.
    render: (s: number, r) => (
      <Flex vertical gap={4} align="flex-start">
        <Tag color={STATUS_COLORS[s]}>{RECORD_STATUS_LABELS[s]}</Tag>
        {r.kind === 'upkeep' && <Tag color="cyan">{RECORD_KINDS.upkeep}</Tag>}
      </Flex>
    ),
  },
  { title: '对象', key: 'what', width: 170, render: (_, r) => <What r={r} /> },
  {
    title: '故障',
    key: 'fault',
    width: 160,
    render: (_, r) =>
      r.fault_type_name ? (
        <Space size={4}>
          {r.fault_type_name}
          <Tag color={SEVERITY_COLORS[r.severity]}>{FAULT_SEVERITIES[r.severity]}</Tag>
        </Space>
      ) : (
        r.equipment_type_name
      ),
  },
  { title: '时限', key: 'clock', width: 150, render: (_, r) => <Clock r={r} /> },
  { title: '处理人', key: 'assignee', width: 110, render: (_, r) => <Assignee r={r} /> },
  // The reporter (also in the drawer) only on wide screens: at 1366 the fixed 操作 column
  // covered 报修时间.
  { title: '报修人', dataIndex: 'reporter_name', width: 100, from: 'xl' },
  { title: '报修时间', dataIndex: 'created_at', width: 165, from: 'lg' },
  { title: '描述', dataIndex: 'description', ellipsis: true, from: 'xl' },
];

function Photo({ id, n }: { id: number; n: number }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let gone = false;
    let made: string | null = null;
    photoUrl(id, n).then(
      (u) => {
        made = u;
        if (gone) URL.revokeObjectURL(u);
        else setUrl(u);
      },
      () => setUrl(null),
    );
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [id, n]);
  return url ? (
    <Image
      src={url}
      width={96}
      height={96}
      style={{ objectFit: 'cover', borderRadius: 6 }}
      alt={`照片 ${n + 1}`}
    />
  ) : (
    <div style={{ width: 96, height: 96, background: '#f3f4f6', borderRadius: 6 }} />
  );
}

/**
 * 拍照 on an open record: the technician's photo of the work (the repaired part, the refilled
 * dispenser) from the phone's camera, compressed in the browser as on the add-record screen.
 */
function AddPhoto({ id, onDone }: { id: number; onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const add = async (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) return void toast.warning('只能添加图片');
    setBusy(true);
    let photo: string;
    try {
      photo = await compressPhoto(file);
    } catch {
      setBusy(false);
      return void toast.warning(`无法读取图片 ${file.name}`);
    }
    const out = await attempt(() => uploadPhoto(id, dataUrlBlob(photo)), '照片已上传');
    setBusy(false);
    if (out.ok) onDone();
  };
  return (
    <>
      <Button icon={<CameraOutlined />} loading={busy} onClick={() => input.current?.click()}>
        拍照
      </Button>
      <input
        ref={input}
        type="file"
        accept="image/*"
        capture="environment"
        style={{ display: 'none' }}
        aria-label="添加照片"
        onChange={(e) => {
          void add(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </>
  );
}

function AssignBox({ d, onDone }: { d: RecordDetail; onDone: (d: RecordDetail) => void }) {
  const [who, setWho] = useState<number | undefined>(d.record.assignee_id ?? undefined);
  const [busy, setBusy] = useState(false);
  const people = useQuery({
    queryKey: ['maintenance', 'assignees', d.record.id],
    queryFn: () => loadOrThrow(() => listAssignees(d.record.id)),
  });
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select<number>
        value={who}
        onChange={setWho}
        options={(people.data ?? []).map((u) => ({
          value: u.id,
          label: u.company_name ? `${u.user_name}（${u.company_name}）` : u.user_name,
        }))}
        loading={people.isLoading}
        showSearch={{ optionFilterProp: 'label' }}
        placeholder="选择处理人"
        aria-label="处理人"
        style={{ width: '100%' }}
      />
      <Button
        type="primary"
        loading={busy}
        disabled={who === undefined || who === d.record.assignee_id}
        onClick={async () => {
          setBusy(true);
          const out = await attempt(() => assignRecord({ id: d.record.id, assignee_id: who! }), '派单成功');
          setBusy(false);
          if (out.ok) onDone(out.data);
        }}
      >
        {d.record.assignee_id ? '改派' : '派单'}
      </Button>
    </Space.Compact>
  );
}

/** A step that needs a reason (退回, 取消): asks for it, then calls. */
function ReasonButton({
  label,
  call,
  onDone,
  danger,
}: {
  label: string;
  call: (note: string) => ReturnType<typeof rejectRecord>;
  onDone: (d: RecordDetail) => void;
  danger?: boolean;
}) {
  const [note, setNote] = useState('');
  return (
    <ConfirmButton
      title={label}
      okText={label}
      type="default"
      size="middle"
      description={
        <Input.TextArea
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder="请填写原因"
          aria-label={`${label}原因`}
          maxLength={500}
          autoSize={{ minRows: 2, maxRows: 4 }}
        />
      }
      danger={danger}
      onConfirm={async () => {
        const out = await attempt(() => call(note.trim()), `${label}成功`);
        if (out.ok) onDone(out.data);
      }}
    >
      {label}
    </ConfirmButton>
  );
}

function CompleteDialog({
  id,
  onSaved,
  onClosed,
}: {
  id: number;
  onSaved: (d: RecordDetail) => void;
  onClosed: () => void;
}) {
  return (
    <FormModal
      title="完工"
      width={520}
      name="complete"
      schema={completeBody}
      initialValues={{ remedy: '', parts_replaced: '', cost: 0, minutes_spent: 0, note: '' }}
      fields={[
        { name: 'remedy', label: '处理方法', kind: 'textarea', required: true, maxLength: 500 },
        { name: 'parts_replaced', label: '更换部件', kind: 'textarea', maxLength: 500 },
        { name: 'cost', label: '费用（元）', kind: 'number', span: 12, props: { min: 0, precision: 2 } },
        { name: 'minutes_spent', label: '用时（分钟）', kind: 'number', span: 12, props: { min: 0 } },
        { name: 'note', label: '备注', kind: 'textarea', maxLength: 500 },
      ]}
      submit={(v) => completeRecord({ id, ...v })}
      success="已提交验收"
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

/** A 保养 order's checklist: ticked off one by one (while 处理中), each with who and when. */
function Checklist({ d, onDone }: { d: RecordDetail; onDone: (d: RecordDetail) => void }) {
  const [busy, setBusy] = useState<number | null>(null);
  const left = d.checklist.filter((s) => !s.done).length;
  return (
    <Flex vertical gap={8} aria-label="检查项">
      <Typography.Title level={5} style={{ margin: 0 }}>
        检查项{' '}
        <Typography.Text type={left ? 'warning' : 'success'} style={{ fontSize: 14, fontWeight: 'normal' }}>
          {left ? `还有 ${left} 项` : '已全部完成'}
        </Typography.Text>
      </Typography.Title>
      {d.checklist.map((s, n) => (
        <Checkbox
          key={n}
          checked={s.done}
          disabled={!d.can.check || busy !== null}
          style={{ minHeight: 32, alignItems: 'center' }}
          onChange={async (e) => {
            setBusy(n);
            const out = await attempt(() => checkStep({ id: d.record.id, n, done: e.target.checked }));
            setBusy(null);
            if (out.ok) onDone(out.data);
          }}
        >
          {s.step}
          {s.done && (
            <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>
              {s.by} {s.at.slice(5, 16)}
            </Typography.Text>
          )}
        </Checkbox>
      ))}
    </Flex>
  );
}

/** The detail drawer: what, the clock, photos, the timeline and the steps the caller may take. */
function RecordDrawer({
  id,
  onClosed,
  onChanged,
}: {
  id: number;
  onClosed: () => void;
  onChanged: () => void;
}) {
  const client = useQueryClient();
  const key = ['maintenance', 'record', id];
  const q = useQuery({ queryKey: key, queryFn: () => loadOrThrow(() => getRecord(id)) });
  const completing = useDialog();
  const done = (d: RecordDetail) => {
    client.setQueryData(key, d);
    onChanged();
  };
  const d = q.data;
  const r = d?.record;
  return (
    <MountedDrawer
      title={r ? `${r.kind === 'upkeep' ? '保养单' : '维修单'} ${r.no}` : '维修单'}
      width={560}
      onClosed={onClosed}
    >
      {r && d && (
        <Flex vertical gap={16}>
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label="状态">
              <Space>
                <Tag color={STATUS_COLORS[r.status]}>{RECORD_STATUS_LABELS[r.status]}</Tag>
                <Clock r={r} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="对象">
              <What r={r} />
            </Descriptions.Item>
            {r.ser_num && r.toilet_name && (
              <Descriptions.Item label="厕所">
                <ToiletLink id={r.toilet_id} name={r.toilet_name} />
              </Descriptions.Item>
            )}
            <Descriptions.Item label="故障">
              {r.equipment_type_name}
              {r.fault_type_name && ` / ${r.fault_type_name}（${FAULT_SEVERITIES[r.severity]}）`}
            </Descriptions.Item>
            <Descriptions.Item label="描述">{r.description}</Descriptions.Item>
            <Descriptions.Item label="报修">
              {r.reporter_name} {r.created_at}
            </Descriptions.Item>
            <Descriptions.Item label="时限">{r.due_at}</Descriptions.Item>
            <Descriptions.Item label="处理人">{r.assignee_name || '未派单'}</Descriptions.Item>
            {r.team_name && <Descriptions.Item label="维修班组">{r.team_name}</Descriptions.Item>}
            {r.finished_at && (
              <>
                <Descriptions.Item label="完工">{r.finished_at}</Descriptions.Item>
                <Descriptions.Item label="处理方法">{r.remedy}</Descriptions.Item>
                {r.parts_replaced && (
                  <Descriptions.Item label="更换部件">{r.parts_replaced}</Descriptions.Item>
                )}
                <Descriptions.Item label="费用 / 用时">
                  {r.cost} 元 / {r.minutes_spent} 分钟
                </Descriptions.Item>
              </>
            )}
          </Descriptions>
          {r.photo_count > 0 && (
            <Image.PreviewGroup>
              <Flex wrap gap={8} aria-label="照片">
                {Array.from({ length: r.photo_count }, (_, n) => (
                  <Photo key={n} id={r.id} n={n} />
                ))}
              </Flex>
            </Image.PreviewGroup>
          )}
          {d.checklist.length > 0 && <Checklist d={d} onDone={done} />}
          {d.can.assign && <AssignBox d={d} onDone={done} />}
          <Flex wrap gap={8}>
            {r.status <= 2 && r.photo_count < RECORD_PHOTO_LIMITS.count && (
              <AddPhoto
                id={r.id}
                onDone={() => {
                  void client.invalidateQueries({ queryKey: key });
                  onChanged();
                }}
              />
            )}
            {d.can.complete && (
              <Button type="primary" onClick={() => completing.open(true)}>
                完工
              </Button>
            )}
            {d.can.accept && (
              <ConfirmButton
                title="验收通过"
                okText="验收通过"
                danger={false}
                type="primary"
                size="middle"
                description={`确认 ${r.no} 已修好并验收通过吗？`}
                onConfirm={async () => {
                  const out = await attempt(() => acceptRecord({ id: r.id }), '验收通过');
                  if (out.ok) done(out.data);
                }}
              >
                验收通过
              </ConfirmButton>
            )}
            {d.can.accept && (
              <ReasonButton label="退回" call={(note) => rejectRecord({ id: r.id, note })} onDone={done} />
            )}
            {d.can.cancel && (
              <ReasonButton
                label="取消维修"
                danger
                call={(note) => cancelRecord({ id: r.id, note })}
                onDone={done}
              />
            )}
          </Flex>
          <Flex align="center" justify="space-between">
            <Typography.Title level={5} style={{ margin: 0 }}>
              快递单
            </Typography.Title>
            <Link to={`/add-express-order?record=${r.no}`}>寄件</Link>
          </Flex>
          {d.shipments.length ? (
            <Flex vertical gap={4} aria-label="快递单">
              {d.shipments.map((x) => (
                <div key={x.id}>
                  {courierLabel(x.company)} {x.tracking_no} <Tag>{EXPRESS_STATUS_LABELS[x.status]}</Tag>
                  <Typography.Text type="secondary">{x.created_at}</Typography.Text>
                </div>
              ))}
            </Flex>
          ) : (
            <Typography.Text type="secondary">暂无</Typography.Text>
          )}
          <Typography.Title level={5} style={{ margin: 0 }}>
            处理过程
          </Typography.Title>
          <Timeline
            items={d.events.map((e) => ({
              key: e.id,
              color: STATUS_COLORS[e.status],
              content: (
                <>
                  <Typography.Text strong>
                    {RECORD_ACTIONS[e.action as keyof typeof RECORD_ACTIONS] ?? e.action}
                  </Typography.Text>{' '}
                  {e.user_name} <Typography.Text type="secondary">{e.created_at}</Typography.Text>
                  {e.note && <div>{e.note}</div>}
                </>
              ),
            }))}
          />
        </Flex>
      )}
      {completing.target && <CompleteDialog id={id} onSaved={done} onClosed={completing.close} />}
    </MountedDrawer>
  );
}

function Stats() {
  const s = useQuery({
    queryKey: ['maintenance', 'stats'],
    queryFn: () => loadOrThrow(() => maintenanceStats()),
    placeholderData: keepPreviousData,
  });
  const v = s.data;
  return (
    <Flex wrap gap={12} style={{ marginBottom: 12 }}>
      <Card size="small">
        <Statistic title="未完成" value={v?.open ?? '-'} />
      </Card>
      <Card size="small">
        <Statistic
          title="已超时"
          value={v?.overdue ?? '-'}
          styles={{ content: { color: v?.overdue ? '#cf1322' : undefined } }}
        />
      </Card>
      <Card size="small" title="平均修复时间" style={{ minWidth: 220 }}>
        {v?.mttr.length ? (
          v.mttr.slice(0, 5).map((m) => (
            <div key={m.fault_type_name}>
              {m.fault_type_name}：
              {m.minutes >= 60 ? `${(m.minutes / 60).toFixed(1)} 小时` : `${m.minutes} 分钟`}（{m.count} 次）
            </div>
          ))
        ) : (
          <Typography.Text type="secondary">暂无</Typography.Text>
        )}
      </Card>
      <Card size="small" title="维修最多的设备" style={{ minWidth: 220 }}>
        {v?.top_devices.length ? (
          v.top_devices.slice(0, 10).map((t) => (
            <div key={t.device_id}>
              {t.ser_num}：{t.count} 次
            </div>
          ))
        ) : (
          <Typography.Text type="secondary">暂无</Typography.Text>
        )}
      </Card>
    </Flex>
  );
}

const TABS = ['records', 'plans', 'teams'] as const;
type TabKey = (typeof TABS)[number];

/**
 * /maintenance-records: the work orders (维修记录) and, on further tabs, the plans that open
 * 保养 orders (计划保养) and the teams they go to (维修班组); SPEC §2 has no route of its own
 * for them. `?tab=plans` and `?tab=teams` link to them.
 */
export default function MaintenanceRecordsPage() {
  const [params, setParams] = useSearchParams();
  const tab: TabKey = TABS.find((t) => t === params.get('tab')) ?? 'records';
  return (
    <Tabs
      activeKey={tab}
      onChange={(k) =>
        setParams(
          (p) => {
            if (k === 'records') p.delete('tab');
            else p.set('tab', k);
            return p;
          },
          { replace: true },
        )
      }
      items={[
        { key: 'records', label: '维修记录', children: <RecordsTab /> },
        { key: 'plans', label: '保养计划', children: <PlansTab /> },
        { key: 'teams', label: '维修班组', children: <TeamsTab /> },
      ]}
    />
  );
}

/** Work orders with filters, the response clock, detail, assign, export. */
function RecordsTab() {
  const me = useSession((s) => s.userID);
  const navigate = useNavigate();
  const client = useQueryClient();
  const list = useListQuery({
    key: ['maintenance', 'records'],
    filters: FILTERS,
    load: (f, paging) => listRecords({ ...recordsQuery(f, me), ...paging }),
  });
  const drawer = useDialog<{ id: number }>();
  const [exporting, setExporting] = useState(false);
  const changed = () => {
    list.refresh();
    void client.invalidateQueries({ queryKey: ['maintenance', 'stats'] });
  };
  return (
    <>
      <Stats />
      <ListView
        list={list}
        columns={COLUMNS}
        rowKey="id"
        empty={list.filtered ? '没有符合条件的维修记录' : '暂无维修记录'}
        cardTitle={(r) => r.no}
        cardExtra={(r) => <Tag color={STATUS_COLORS[r.status]}>{RECORD_STATUS_LABELS[r.status]}</Tag>}
        add={{ label: '报修', onClick: () => navigate('/add-maintenance-record') }}
        listActions={
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            onClick={async () => {
              setExporting(true);
              await attempt(
                () => startExport(RECORDS_EXPORT, recordsQuery(list.applied, me)),
                '已加入下载中心',
              );
              setExporting(false);
            }}
          >
            导出
          </Button>
        }
        actions={(r) => <RowAction onClick={() => drawer.open({ id: r.id })}>详情</RowAction>}
      />
      {drawer.target && <RecordDrawer id={drawer.target.id} onClosed={drawer.close} onChanged={changed} />}
    </>
  );
}
