import type { UserRow } from '@se/core';
import { Tabs } from 'antd';
import { ListCard } from '../../components/list/index.ts';
import { useSearchParams } from 'react-router';
import { AUDIT_PARAM, AuditLogTab } from './AuditLogTab.tsx';
import { UserList } from './UserList.tsx';

type TabKey = 'users' | 'audit';

/** /users (用户管理): the users the caller manages, and the audit log of changes to them. */
export default function UsersPage() {
  // The tab, like each tab's search, is in the URL: ?tab=audit links to the log.
  const [params, setParams] = useSearchParams();
  const tab: TabKey = params.get('tab') === 'audit' ? 'audit' : 'users';

  const showTab = (key: TabKey, next = new URLSearchParams(params)) => {
    if (key === 'audit') next.set('tab', key);
    else next.delete('tab');
    setParams(next);
  };

  // A row's 审计 action opens the log filtered to that user, its other filters and page cleared.
  const showAudit = (user: UserRow) => {
    const next = new URLSearchParams(params);
    for (const key of [...next.keys()]) if (key.startsWith(AUDIT_PARAM)) next.delete(key);
    next.set(`${AUDIT_PARAM}targetId`, String(user.id));
    showTab('audit', next);
  };

  return (
    <ListCard body={{ paddingTop: 8 }}>
      <Tabs
        activeKey={tab}
        onChange={(key) => showTab(key as TabKey)}
        items={[
          { key: 'users', label: '用户列表', children: <UserList onAudit={showAudit} /> },
          { key: 'audit', label: '审计日志', children: <AuditLogTab /> },
        ]}
      />
    </ListCard>
  );
}
