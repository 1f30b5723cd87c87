import type { UserRow } from '@se/core';
import { Card, Tabs } from 'antd';
import { useState } from 'react';
import { useIsMobile } from '../../layout/viewport.ts';
import { AuditLogTab } from './AuditLogTab.tsx';
import { UserList } from './UserList.tsx';

type TabKey = 'users' | 'audit';

/** /users (用户管理): the users the caller manages, and the audit log of changes to them. */
export default function UsersPage() {
  const mobile = useIsMobile();
  const [tab, setTab] = useState<TabKey>('users');
  // A row's 审计 action opens the log filtered to that user; bumping seq remounts the tab so
  // its filters, inputs and page start over from that user.
  const [auditOf, setAuditOf] = useState<{ seq: number; userId?: number }>({ seq: 0 });

  const showAudit = (user: UserRow) => {
    setAuditOf((a) => ({ seq: a.seq + 1, userId: user.id }));
    setTab('audit');
  };

  return (
    <Card styles={{ body: { padding: mobile ? 12 : 24, paddingTop: 8 } }}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as TabKey)}
        items={[
          { key: 'users', label: '用户列表', children: <UserList onAudit={showAudit} /> },
          {
            key: 'audit',
            label: '审计日志',
            children: <AuditLogTab key={auditOf.seq} targetId={auditOf.userId} />,
          },
        ]}
      />
    </Card>
  );
}
