import {
  ApiOutlined,
  AuditOutlined,
  BankOutlined,
  DeleteOutlined,
  EditOutlined,
  LinkOutlined,
  PlusOutlined,
  ReloadOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { PERMISSION, ROLES, has, isManager, type UserRow } from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Input,
  Pagination,
  Popconfirm,
  Select,
  Spin,
  Table,
  type TableColumnsType,
} from 'antd';
import { useState, type ReactNode } from 'react';
import { listUsers, updateUser } from '../../api/users.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { usePager } from '../../components/pager.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { useSession } from '../../session/store.ts';
import { CompanyInfoDialog } from './CompanyInfoDialog.tsx';
import { BindDevicesDialog } from '../devices/BindDevicesDialog.tsx';
import { DockingDrawer } from './DockingDrawer.tsx';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { roleByName } from './role-picker.ts';
import { RoleTags, ServiceTags } from './RolePicker.tsx';
import { UserFormDialog, type UserDialogTarget } from './UserFormDialog.tsx';

interface Search {
  keywords: string;
  /** A role name, not a value: OEM and 后台管理员(厕所) share 127. */
  role: string | undefined;
}

const NO_SEARCH: Search = { keywords: '', role: undefined };

const ROLE_FILTER_OPTIONS = ROLES.map((r) => ({ value: r.name, label: r.label }));

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

/** 用户列表: search, the users the caller manages, and what can be done to each. */
export function UserList({ onAudit }: { onAudit: (user: UserRow) => void }) {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const callerMask = useSession((s) => s.permission);
  const callerId = useSession((s) => s.userID);
  const pager = usePager();
  const [draft, setDraft] = useState<Search>(NO_SEARCH);
  // seq makes 查询 fetch again even when the search did not change.
  const [applied, setApplied] = useState({ search: NO_SEARCH, seq: 0 });
  const [dialog, setDialog] = useState<UserDialogTarget | null>(null);
  const [infoOf, setInfoOf] = useState<UserRow | null>(null);
  const [dockingOf, setDockingOf] = useState<UserRow | null>(null);
  const [bindingOf, setBindingOf] = useState<UserRow | null>(null);

  const permission = roleByName(applied.search.role)?.value;
  const users = useQuery({
    queryKey: ['users', 'list', applied.search, applied.seq, pager.page, pager.pageSize],
    queryFn: () =>
      loadOrThrow(() =>
        listUsers({
          keywords: applied.search.keywords || undefined,
          permission,
          page: pager.page,
          page_size: pager.pageSize,
        }),
      ),
    placeholderData: keepPreviousData,
  });

  const apply = (search: Search) => {
    setApplied((a) => ({ search: { ...search, keywords: search.keywords.trim() }, seq: a.seq + 1 }));
    pager.reset();
  };

  // Names, roles and companies show in the list and every change in the audit log.
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['users'] });

  const remove = async (user: UserRow) => {
    const outcome = await attempt(() => updateUser({ id: user.id, is_delete: true }), '删除成功');
    if (outcome.ok) refresh();
  };

  const canAdd = isManager(callerMask);
  const canDock = has(callerMask, PERMISSION.apier);

  const actions = (user: UserRow): ReactNode => (
    <Flex wrap gap={4}>
      <Button
        size="small"
        type="link"
        icon={<EditOutlined />}
        onClick={() => setDialog({ mode: 'edit', user })}
      >
        编辑
      </Button>
      {user.id !== callerId && canAdd && (
        <Button size="small" type="link" icon={<LinkOutlined />} onClick={() => setBindingOf(user)}>
          绑定设备
        </Button>
      )}
      <Button size="small" type="link" icon={<BankOutlined />} onClick={() => setInfoOf(user)}>
        公司信息
      </Button>
      {canDock && (
        <Button size="small" type="link" icon={<ApiOutlined />} onClick={() => setDockingOf(user)}>
          对接接口
        </Button>
      )}
      <Button size="small" type="link" icon={<AuditOutlined />} onClick={() => onAudit(user)}>
        审计
      </Button>
      {user.id !== callerId && (
        <Popconfirm
          title="删除用户"
          description={deleteQuestion(user.user_name)}
          okText="删除"
          okButtonProps={{ danger: true }}
          cancelText="取 消"
          onConfirm={() => remove(user)}
        >
          <Button size="small" type="link" danger icon={<DeleteOutlined />}>
            删除
          </Button>
        </Popconfirm>
      )}
    </Flex>
  );

  const columns: TableColumnsType<UserRow> = [
    { title: 'ID', dataIndex: 'id', width: 100, fixed: 'left', render: (id: number) => <IdCell id={id} /> },
    { title: '用户名', dataIndex: 'user_name', width: 140, ellipsis: true },
    { title: '邮箱', dataIndex: 'email', width: 190, ellipsis: true, render: dash },
    { title: '电话', dataIndex: 'phone_num', width: 130, render: dash },
    {
      title: '角色',
      dataIndex: 'permissions',
      width: 250,
      render: (mask: number, row: UserRow) => <RoleTags mask={mask} bm={row.backend_manager} />,
    },
    {
      title: '服务',
      dataIndex: 'services',
      width: 150,
      render: (services: number) => <ServiceTags services={services} />,
    },
    { title: '公司', dataIndex: 'company_name', width: 160, ellipsis: true, render: dash },
    { title: '上级', dataIndex: 'parent_name', width: 120, ellipsis: true, render: dash },
    { title: '未读消息', dataIndex: 'message_count', width: 90, align: 'right' },
    { title: '创建时间', dataIndex: 'created_at', width: 170 },
    { title: '操作', key: 'actions', width: 250, fixed: 'right', render: (_, user) => actions(user) },
  ];

  const rows = users.data?.list ?? [];
  const total = users.data?.total ?? 0;
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无用户" />;

  const card = (user: UserRow) => (
    <Card
      key={user.id}
      size="small"
      title={user.user_name}
      extra={<IdCell id={user.id} />}
      styles={{ body: { paddingBottom: 4 } }}
    >
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'email', label: '邮箱', children: dash(user.email) },
          { key: 'phone', label: '电话', children: dash(user.phone_num) },
          {
            key: 'roles',
            label: '角色',
            children: <RoleTags mask={user.permissions} bm={user.backend_manager} />,
          },
          { key: 'services', label: '服务', children: <ServiceTags services={user.services} /> },
          { key: 'company', label: '公司', children: dash(user.company_name) },
          { key: 'parent', label: '上级', children: dash(user.parent_name) },
          { key: 'messages', label: '未读消息', children: user.message_count },
          { key: 'created', label: '创建时间', children: user.created_at },
        ]}
      />
      {actions(user)}
    </Card>
  );

  return (
    <>
      <Flex wrap gap="small" style={{ marginBottom: 16 }}>
        <Input.Search
          value={draft.keywords}
          onChange={(e) => setDraft({ ...draft, keywords: e.target.value })}
          onSearch={(keywords) => apply({ ...draft, keywords })}
          allowClear
          maxLength={100}
          placeholder="用户名 / ID / 邮箱 / 电话"
          aria-label="关键字"
          style={{ width: mobile ? '100%' : 260 }}
        />
        <Select
          value={draft.role}
          onChange={(role: string | undefined) => setDraft({ ...draft, role })}
          options={ROLE_FILTER_OPTIONS}
          allowClear
          placeholder="角色"
          aria-label="角色"
          style={{ width: mobile ? '100%' : 180 }}
        />
        <Button type="primary" icon={<SearchOutlined />} onClick={() => apply(draft)}>
          查询
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            setDraft(NO_SEARCH);
            apply(NO_SEARCH);
          }}
        >
          重置
        </Button>
        {canAdd && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'add' })}>
            新增用户
          </Button>
        )}
      </Flex>

      {mobile ? (
        <Spin spinning={users.isFetching}>
          <Flex vertical gap="small" style={{ minHeight: 120 }}>
            {rows.length === 0 ? empty : rows.map(card)}
            {rows.length > 0 && (
              <Pagination {...pager.pagination(total)} size="small" showQuickJumper={false} align="end" />
            )}
          </Flex>
        </Spin>
      ) : (
        <Table<UserRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={users.isFetching}
          locale={{ emptyText: empty }}
          scroll={{ x: 1800 }}
          pagination={pager.pagination(total)}
        />
      )}

      {dialog && (
        <UserFormDialog
          key={dialog.mode === 'edit' ? dialog.user.id : 'add'}
          target={dialog}
          onSaved={refresh}
          onClosed={() => setDialog(null)}
        />
      )}
      {infoOf && <CompanyInfoDialog user={infoOf} onSaved={refresh} onClosed={() => setInfoOf(null)} />}
      {dockingOf && <DockingDrawer user={dockingOf} onClosed={() => setDockingOf(null)} />}
      {bindingOf && (
        <BindDevicesDialog
          userId={bindingOf.id}
          userName={bindingOf.user_name}
          open
          onClose={() => setBindingOf(null)}
        />
      )}
    </>
  );
}
