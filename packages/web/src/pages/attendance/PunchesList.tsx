import { PUNCH_METHODS, type PunchRow } from '@se/core';
import { Flex, Modal, Tag } from 'antd';
import { ToiletLink } from '../../components/ObjectLinks.tsx';
import { useState } from 'react';
import { listPunches, resolvePunch } from '../../api/attendance.ts';
import { attempt } from '../../components/feedback.ts';
import {
  ListTable,
  ListToolbar,
  RowAction,
  check,
  dateRange,
  rangeQuery,
  text,
  useListQuery,
  type FilterFields,
  type ListColumn,
  type Range,
} from '../../components/list/index.ts';
import { EmployeeSelect } from './EmployeeSelect.tsx';

interface Filters {
  keywords: string;
  unmatched: boolean;
  range: Range;
}

const FILTERS: FilterFields<Filters> = {
  keywords: text({ placeholder: '姓名、工号、卡号', width: 180 }),
  unmatched: check({ label: '仅未匹配', instant: true }),
  range: dateRange({ time: true }),
};

const methodText = (m: string) => PUNCH_METHODS[m as keyof typeof PUNCH_METHODS] ?? m;

const who = (p: PunchRow) =>
  p.employee_id === null ? <Tag color="orange">未匹配</Tag> : `${p.employee_name}（${p.employee_number}）`;

const COLUMNS: ListColumn<PunchRow>[] = [
  { title: '打卡时间', dataIndex: 'punched_at', width: 170, card: false },
  { title: '员工', key: 'who', width: 160, render: (_, p) => who(p) },
  { title: '卡号/人脸ID', dataIndex: 'badge', width: 130, ellipsis: true },
  { title: '方式', dataIndex: 'method', width: 80, render: methodText },
  { title: '考勤机', dataIndex: 'device_ser_num', width: 140, from: 'lg' },
  {
    title: '巡检厕所',
    dataIndex: 'toilet_name',
    width: 140,
    from: 'lg',
    render: (v: string, p) => <ToiletLink id={p.toilet_id} name={v} />,
  },
];

function ResolveDialog({ punch, onDone }: { punch: PunchRow; onDone: (saved: boolean) => void }) {
  const [employee, setEmployee] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open
      title={`关联员工：${punch.badge}（${punch.punched_at}）`}
      okText="关联"
      cancelText="取 消"
      okButtonProps={{ disabled: employee === undefined, loading: busy }}
      onCancel={() => onDone(false)}
      onOk={async () => {
        if (employee === undefined) return;
        setBusy(true);
        const outcome = await attempt(() => resolvePunch(punch.id, employee), '已关联');
        setBusy(false);
        if (outcome.ok) onDone(true);
      }}
    >
      <p>这条打卡的卡号没有对应的员工。选择它属于的员工：</p>
      <EmployeeSelect value={employee} onChange={setEmployee} />
    </Modal>
  );
}

/**
 * Raw punches of the organisation (or of one terminal): time, who (or 未匹配), card, method,
 * terminal, the toilet a patrol punch was made in; an unmatched punch can be given its employee.
 */
export function PunchesList({ terminalId, param }: { terminalId?: number; param?: string }) {
  const [resolving, setResolving] = useState<PunchRow | null>(null);
  const list = useListQuery({
    key: ['attendance', 'punches', terminalId ?? 'all'],
    filters: FILTERS,
    param,
    local: terminalId !== undefined,
    load: (f, paging) =>
      listPunches({
        keywords: f.keywords.trim() || undefined,
        unmatched: f.unmatched || undefined,
        device_id: terminalId,
        ...rangeQuery(f.range),
        ...paging,
      }),
  });
  return (
    <Flex vertical gap={8}>
      <ListToolbar list={list} />
      <ListTable
        list={list}
        columns={COLUMNS}
        rowKey="id"
        compact={terminalId !== undefined}
        empty={list.filtered ? '没有符合条件的打卡记录' : '暂无打卡记录'}
        cardTitle={(p) => p.punched_at}
        cardExtra={(p) => who(p)}
        actionsWidth={100}
        actions={(p) =>
          p.employee_id === null ? <RowAction onClick={() => setResolving(p)}>关联员工</RowAction> : null
        }
      />
      {resolving && (
        <ResolveDialog
          punch={resolving}
          onDone={(saved) => {
            setResolving(null);
            if (saved) list.refresh();
          }}
        />
      )}
    </Flex>
  );
}
