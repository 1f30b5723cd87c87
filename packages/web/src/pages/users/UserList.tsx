import { ApiOutlined, AuditOutlined, BankOutlined, EditOutlined, LinkOutlined } from '@ant-design/icons';
import { ROLES, isManager, type UserRow } from '@se/core';
import { Button, Flex } from 'antd';
import { listUsers, updateUser } from '../../api/users.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { attempt } from '../../components/feedback.ts';
import {
  DeleteButton,
  ListView,
  select,
  text,
  useDialog,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { useSession } from '../../session/store.ts';
import { useHas } from '../../components/Guard.tsx';
import { BindDevicesDialog } from '../devices/BindDevicesDialog.tsx';
import { CompanyInfoDialog } from './CompanyInfoDialog.tsx';
import { DockingDrawer } from './DockingDrawer.tsx';
import { roleByName } from './role-picker.ts';
import { RoleTags, ServiceTags } from './RolePicker.tsx';
import { UserFormDialog, type UserDialogTarget } from './UserFormDialog.tsx';

interface Search {
  keywords: string;
  /** A role name, not a value: OEM and 后台管理员(厕所) share 127. */
  role: string | undefined;
}

const FILTERS: FilterFields<Search> = {
  keywords: text({ placeholder: '用户名 / ID / 邮箱 / 电话', label: '关键字', width: 260, search: true }),
  role: select<string>({
    options: ROLES.map((r) => ({ value: r.name, label: r.label })),
    placeholder: '角色',
    width: 180,
  }),
};

/** Deleting also ends the user's sessions, so the question says it costs them their login. */
export const deleteQuestion = (name: string) => `确定删除用户 ${name} 吗？删除后该用户将无法登录。`;

const dash = (text: string) => text || '—';

function IdCell({ id }: { id: number }) {
  return (
    <Flex align="center" gap={2}>
      <span>{id}</span>
      <CopyButton text={String(id)} type="text" size="small" aria-label="复制ID" title="复制ID">
        {null}
      </CopyButton>
    </Flex>
  );
}

const COLUMNS: ListColumn<UserRow>[] = [
  { title: 'ID', dataIndex: 'id', width: 80, render: (id: number) => <IdCell id={id} />, card: false },
  { title: '用户名', dataIndex: 'user_name', width: 120, ellipsis: true, card: false },
  { title: '邮箱', dataIndex: 'email', width: 160, ellipsis: true, render: dash },
  { title: '电话', dataIndex: 'phone_num', width: 120, from: 'xl', render: dash },
  {
    title: '角色',
    dataIndex: 'permissions',
    width: 200,
    render: (mask: number, row) => <RoleTags mask={mask} bm={row.backend_manager} />,
  },
  {
    title: '服务',
    dataIndex: 'services',
    width: 150,
    from: 'xl',
    render: (services: number) => <ServiceTags services={services} />,
  },
  { title: '公司', dataIndex: 'company_name', width: 140, ellipsis: true, render: dash },
  { title: '组织', dataIndex: 'org_name', width: 140, ellipsis: true, render: dash },
  { title: '上级', dataIndex: 'parent_name', width: 120, ellipsis: true, from: 'xl', render: dash },
  { title: '未读消息', dataIndex: 'message_count', width: 90, align: 'right', from: 'xl' },
  { title: '创建时间', dataIndex: 'created_at', width: 170, from: 'xl' },
];

/** 用户列表: search, the users the caller manages, and what can be done to each. */
export function UserList({ onAudit }: { onAudit: (user: UserRow) => void }) {
  const callerMask = useSession((s) => s.permission);
  const callerId = useSession((s) => s.userID);
  // Names, roles and companies show in the list and every change in the audit log.
  const list = useListQuery({
    key: ['users'],
    filters: FILTERS,
    load: (f, paging) =>
      listUsers({
        keywords: f.keywords.trim() || undefined,
        permission: roleByName(f.role)?.value,
        ...paging,
      }),
  });
  const dialog = useDialog<UserDialogTarget>();
  const info = useDialog<UserRow>();
  const docking = useDialog<UserRow>();
  const binding = useDialog<UserRow>();

  const remove = async (user: UserRow) => {
    const outcome = await attempt(() => updateUser({ id: user.id, is_delete: true }), '删除成功');
    if (outcome.ok) list.refresh();
  };

  const canAdd = isManager(callerMask);
  const canDock = useHas('apier');
  const action = (label: string, icon: React.ReactNode, onClick: () => void) => (
    <Button size="small" type="link" icon={icon} onClick={onClick}>
      {label}
    </Button>
  );

  const actions = (user: UserRow) => (
    <Flex wrap gap={4}>
      {action('编辑', <EditOutlined />, () => dialog.open({ mode: 'edit', user }))}
      {user.id !== callerId && canAdd && action('绑定设备', <LinkOutlined />, () => binding.open(user))}
      {action('公司信息', <BankOutlined />, () => info.open(user))}
      {canDock && action('对接接口', <ApiOutlined />, () => docking.open(user))}
      {action('审计', <AuditOutlined />, () => onAudit(user))}
      {user.id !== callerId && (
        <DeleteButton
          title="删除用户"
          description={deleteQuestion(user.user_name)}
          onConfirm={() => remove(user)}
        />
      )}
    </Flex>
  );

  return (
    <>
      <ListView
        list={list}
        add={canAdd ? { label: '新增用户', onClick: () => dialog.open({ mode: 'add' }) } : undefined}
        columns={COLUMNS}
        rowKey="id"
        empty="暂无用户"
        actions={actions}
        actionsWidth={250}
        cardTitle={(user) => user.user_name}
        cardExtra={(user) => <IdCell id={user.id} />}
      />
      {dialog.target && (
        <UserFormDialog
          key={dialog.target.mode === 'edit' ? dialog.target.user.id : 'add'}
          target={dialog.target}
          onSaved={list.refresh}
          onClosed={dialog.close}
        />
      )}
      {info.target && <CompanyInfoDialog user={info.target} onSaved={list.refresh} onClosed={info.close} />}
      {docking.target && <DockingDrawer user={docking.target} onClosed={docking.close} />}
      {binding.target && (
        <BindDevicesDialog
          userId={binding.target.id}
          userName={binding.target.user_name}
          open
          onClose={binding.close}
        />
      )}
    </>
  );
}
