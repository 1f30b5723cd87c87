import type { AuditEntry } from '@se/core';
import { Flex, Tag, Typography } from 'antd';
import { listAudit } from '../../api/users.ts';
import {
  dateRange,
  text,
  useListQuery,
  ListView,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { actionLabel, describeChanges } from './audit-changes.ts';
import { auditQuery, type AuditFilters } from './audit-filter.ts';

/** The audit tab's URL parameters start with this (the users tab has its own). */
export const AUDIT_PARAM = 'audit.';

const id = (placeholder: string) => text({ placeholder, width: 150, maxLength: 10, digits: true });
const FILTERS: FilterFields<AuditFilters> = {
  targetId: id('对象用户ID'),
  actorId: id('操作人ID'),
  range: dateRange({ time: true }),
};

const who = (name: string, id: number | null) =>
  id === null ? (
    '—'
  ) : (
    <span>
      {name || '—'} <Typography.Text type="secondary">#{id}</Typography.Text>
    </span>
  );

function Changes({ entry }: { entry: AuditEntry }) {
  const changes = describeChanges(entry.before, entry.after);
  if (changes.length === 0) return <span>—</span>;
  return (
    <Flex vertical gap={2}>
      {changes.map((c) => (
        <span key={c.field} title={c.full === c.text ? undefined : c.full}>
          <Typography.Text type="secondary">{c.label}：</Typography.Text>
          {c.text}
        </span>
      ))}
    </Flex>
  );
}

const ActionTag = ({ action }: { action: string }) => (
  <Tag color={action.endsWith('.delete') || action === 'auth.login_failed' ? 'red' : 'blue'}>
    {actionLabel(action)}
  </Tag>
);

const COLUMNS: ListColumn<AuditEntry>[] = [
  { title: '时间', dataIndex: 'created_at', width: 170, card: false },
  { title: '操作人', key: 'actor', width: 150, render: (_, e) => who(e.actor_name, e.actor_id) },
  { title: '对象用户', key: 'target', width: 150, render: (_, e) => who(e.target_name, e.target_user_id) },
  {
    title: '操作',
    dataIndex: 'action',
    width: 130,
    card: false,
    render: (action: string) => <ActionTag action={action} />,
  },
  { title: '变更', key: 'changes', render: (_, e) => <Changes entry={e} /> },
  { title: 'IP', dataIndex: 'ip', width: 140, render: (ip: string) => ip || '—' },
];

/**
 * 审计日志: who changed which user, when and what. The list's 审计 action links here with the
 * object filter set to that user.
 */
export function AuditLogTab() {
  const list = useListQuery({
    key: ['users', 'audit'],
    filters: FILTERS,
    param: AUDIT_PARAM,
    load: (f, paging) => listAudit({ ...auditQuery(f), ...paging }),
  });
  return (
    <ListView
      list={list}
      columns={COLUMNS}
      rowKey="id"
      empty="暂无审计记录"
      cardTitle={(e) => <ActionTag action={e.action} />}
      cardExtra={(e) => e.created_at}
    />
  );
}
