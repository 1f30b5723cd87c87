import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { AuditEntry } from '@se/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  DatePicker,
  Empty,
  Flex,
  Input,
  Pagination,
  Spin,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { listAudit } from '../../api/users.ts';
import { onlyDigits } from '../../layout/ProfileDialog.tsx';
import { usePager } from '../../components/pager.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { actionLabel, describeChanges } from './audit-changes.ts';
import { auditQuery, NO_AUDIT_FILTERS, SERVER_TIME, type AuditFilters } from './audit-filter.ts';
import { loadOrThrow } from '../../components/feedback.ts';

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

/** One entry on a phone: the same facts as a table row, stacked. */
function AuditCard({ entry }: { entry: AuditEntry }) {
  return (
    <Card size="small" title={<ActionTag action={entry.action} />} extra={entry.created_at}>
      <Flex vertical gap={4}>
        <span>
          <Typography.Text type="secondary">操作人：</Typography.Text>
          {who(entry.actor_name, entry.actor_id)}
        </span>
        <span>
          <Typography.Text type="secondary">对象用户：</Typography.Text>
          {who(entry.target_name, entry.target_user_id)}
        </span>
        <Changes entry={entry} />
        <Typography.Text type="secondary">IP：{entry.ip || '—'}</Typography.Text>
      </Flex>
    </Card>
  );
}

const columns: TableColumnsType<AuditEntry> = [
  { title: '时间', dataIndex: 'created_at', width: 170 },
  { title: '操作人', key: 'actor', width: 150, render: (_, e) => who(e.actor_name, e.actor_id) },
  { title: '对象用户', key: 'target', width: 150, render: (_, e) => who(e.target_name, e.target_user_id) },
  {
    title: '操作',
    dataIndex: 'action',
    width: 130,
    render: (action: string) => <ActionTag action={action} />,
  },
  { title: '变更', key: 'changes', render: (_, e) => <Changes entry={e} /> },
  { title: 'IP', dataIndex: 'ip', width: 140 },
];

/**
 * 审计日志: who changed which user, when and what. `targetId` pre-fills the object filter
 * (the list's 审计 action remounts this tab with it).
 */
export function AuditLogTab({ targetId }: { targetId?: number }) {
  const mobile = useIsMobile();
  const pager = usePager();
  const initial: AuditFilters = { ...NO_AUDIT_FILTERS, targetId: targetId ? String(targetId) : '' };
  const [draft, setDraft] = useState<AuditFilters>(initial);
  // seq makes 查询 fetch again even when the filters did not change.
  const [applied, setApplied] = useState({ filters: initial, seq: 0 });

  const query = auditQuery(applied.filters);
  const audit = useQuery({
    queryKey: ['users', 'audit', query, applied.seq, pager.page, pager.pageSize],
    queryFn: () => loadOrThrow(() => listAudit({ ...query, page: pager.page, page_size: pager.pageSize })),
    placeholderData: keepPreviousData,
  });

  const apply = (filters: AuditFilters) => {
    setApplied((a) => ({ filters, seq: a.seq + 1 }));
    pager.reset();
  };

  const rows = audit.data?.list ?? [];
  const total = audit.data?.total ?? 0;
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无审计记录" />;
  const now = dayjs();
  return (
    <>
      <Flex wrap gap="small" style={{ marginBottom: 16 }}>
        <Input
          value={draft.targetId}
          onChange={(e) => setDraft({ ...draft, targetId: onlyDigits(e.target.value) })}
          onPressEnter={() => apply(draft)}
          inputMode="numeric"
          maxLength={10}
          allowClear
          placeholder="对象用户ID"
          aria-label="对象用户ID"
          style={{ width: mobile ? '100%' : 150 }}
        />
        <Input
          value={draft.actorId}
          onChange={(e) => setDraft({ ...draft, actorId: onlyDigits(e.target.value) })}
          onPressEnter={() => apply(draft)}
          inputMode="numeric"
          maxLength={10}
          allowClear
          placeholder="操作人ID"
          aria-label="操作人ID"
          style={{ width: mobile ? '100%' : 150 }}
        />
        {mobile ? (
          // The range panel with times is wider than a phone; two date-only pickers fit, and
          // a day range (start of the first, end of the last) is what one picks on a phone.
          <Flex gap="small" style={{ width: '100%' }}>
            <DatePicker
              value={draft.range?.[0] ?? null}
              onChange={(day) =>
                setDraft({ ...draft, range: [day?.startOf('day') ?? null, draft.range?.[1] ?? null] })
              }
              placeholder="开始日期"
              inputReadOnly
              style={{ flex: 1 }}
            />
            <DatePicker
              value={draft.range?.[1] ?? null}
              onChange={(day) =>
                setDraft({ ...draft, range: [draft.range?.[0] ?? null, day?.endOf('day') ?? null] })
              }
              placeholder="结束日期"
              inputReadOnly
              style={{ flex: 1 }}
            />
          </Flex>
        ) : (
          <DatePicker.RangePicker
            value={draft.range}
            onChange={(range) => setDraft({ ...draft, range })}
            showTime={{ defaultOpenValue: [now.startOf('day'), now.endOf('day')] }}
            format={SERVER_TIME}
            placeholder={['开始时间', '结束时间']}
            presets={[
              { label: '今天', value: [now.startOf('day'), now.endOf('day')] },
              { label: '最近 7 天', value: [now.subtract(6, 'day').startOf('day'), now.endOf('day')] },
              { label: '最近 30 天', value: [now.subtract(29, 'day').startOf('day'), now.endOf('day')] },
            ]}
            style={{ width: 380 }}
          />
        )}
        <Button type="primary" icon={<SearchOutlined />} onClick={() => apply(draft)}>
          查询
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            setDraft(NO_AUDIT_FILTERS);
            apply(NO_AUDIT_FILTERS);
          }}
        >
          重置
        </Button>
      </Flex>
      {mobile ? (
        <Spin spinning={audit.isFetching}>
          <Flex vertical gap="small" style={{ minHeight: 120 }}>
            {rows.length === 0 ? empty : rows.map((e) => <AuditCard key={e.id} entry={e} />)}
            {rows.length > 0 && (
              <Pagination {...pager.pagination(total)} size="small" showQuickJumper={false} align="end" />
            )}
          </Flex>
        </Spin>
      ) : (
        <Table<AuditEntry>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={audit.isFetching}
          locale={{ emptyText: empty }}
          scroll={{ x: 1000 }}
          pagination={pager.pagination(total)}
        />
      )}
    </>
  );
}
