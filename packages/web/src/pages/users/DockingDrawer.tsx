import {
  DeleteOutlined,
  EditOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  HistoryOutlined,
  PlusOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { addDockingBody, updateDockingBody, type DockingInterface, type UserRow } from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Drawer,
  Empty,
  Flex,
  Form,
  Input,
  Modal,
  Pagination,
  Popconfirm,
  Spin,
  Table,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { addDocking, listDocking, testDocking, updateDocking } from '../../api/users.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { zodRule } from '../../components/form-rules.ts';
import { usePager } from '../../components/pager.ts';
import { toast } from '../../components/toast.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { DockingDeliveriesModal, DockingPushSwitches } from '../notify/DockingDeliveries.tsx';
import { dockingTestText, maskToken } from './docking-text.ts';

/** A token hidden until asked for, with a copy button either way. */
function TokenCell({ token }: { token: string }) {
  const [shown, setShown] = useState(false);
  return (
    <Flex align="center" gap={4} wrap={false}>
      <Typography.Text code style={{ wordBreak: 'break-all' }}>
        {shown ? token : maskToken(token)}
      </Typography.Text>
      <Button
        type="text"
        size="small"
        icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
        aria-label={shown ? '隐藏令牌' : '显示令牌'}
        title={shown ? '隐藏令牌' : '显示令牌'}
        onClick={() => setShown(!shown)}
      />
      <CopyButton text={token} type="text" size="small" aria-label="复制令牌" title="复制令牌">
        {null}
      </CopyButton>
    </Flex>
  );
}

interface DockingForm {
  name: string;
  url: string;
  token: string;
}

/** 新增 / 编辑 one docking interface of `owner`. Token: empty generates (add) or keeps (edit). */
function DockingFormDialog({
  owner,
  docking,
  onSaved,
  onClosed,
}: {
  owner: UserRow;
  docking: DockingInterface | null;
  onSaved: () => void;
  onClosed: () => void;
}) {
  const mobile = useIsMobile();
  const [form] = Form.useForm<DockingForm>();
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);
  const schema = docking ? updateDockingBody : addDockingBody;

  const save = async () => {
    let values: DockingForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const fields = { name: values.name.trim(), url: values.url.trim(), token: (values.token ?? '').trim() };
    setSaving(true);
    const outcome = docking
      ? await attempt(() => updateDocking({ id: docking.id, ...fields }), '修改成功')
      : await attempt(() => addDocking({ ...fields, target_user_id: owner.id }), '新增成功');
    setSaving(false);
    if (!outcome.ok) return;
    onSaved();
    setOpen(false);
  };

  return (
    <Modal
      title={docking ? `编辑对接接口 ${docking.name}` : '新增对接接口'}
      open={open}
      width={mobile ? '95%' : 560}
      mask={{ closable: false }}
      okText="保存"
      cancelText="取 消"
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={() => setOpen(false)}
      afterClose={onClosed}
    >
      <Form<DockingForm>
        form={form}
        layout="vertical"
        name="docking"
        autoComplete="off"
        initialValues={{ name: docking?.name ?? '', url: docking?.url ?? '', token: '' }}
      >
        <Form.Item label="名称" name="name" required rules={[zodRule(schema, 'name')]}>
          <Input maxLength={50} placeholder="请输入名称" />
        </Form.Item>
        <Form.Item label="地址" name="url" required rules={[zodRule(schema, 'url')]}>
          <Input maxLength={500} placeholder="http:// 或 https:// 开头的网址" inputMode="url" />
        </Form.Item>
        <Form.Item
          label="令牌"
          name="token"
          rules={[zodRule(schema, 'token')]}
          extra={docking ? '留空则保持当前令牌不变' : '留空将由系统自动生成'}
        >
          <Input maxLength={200} placeholder={docking ? '输入新令牌以替换' : '选填'} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 对接接口 of one user: list, add, edit, delete and a test call to each. */
export function DockingDrawer({ user, onClosed }: { user: UserRow; onClosed: () => void }) {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const pager = usePager();
  const [open, setOpen] = useState(true);
  const [draft, setDraft] = useState('');
  const [keywords, setKeywords] = useState('');
  const [editing, setEditing] = useState<{ docking: DockingInterface | null } | null>(null);
  const [testing, setTesting] = useState<number | null>(null);
  const [logOf, setLogOf] = useState<DockingInterface | null>(null);

  const list = useQuery({
    queryKey: ['users', 'docking', user.id, keywords, pager.page, pager.pageSize],
    queryFn: () =>
      loadOrThrow(() =>
        listDocking({
          target_user_id: user.id,
          keywords: keywords || undefined,
          page: pager.page,
          page_size: pager.pageSize,
        }),
      ),
    placeholderData: keepPreviousData,
  });

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['users', 'docking', user.id] });
    // Every change is audited; an open audit tab should show it.
    void queryClient.invalidateQueries({ queryKey: ['users', 'audit'] });
  };

  const search = (text: string) => {
    setKeywords(text.trim());
    pager.reset();
  };

  const remove = async (d: DockingInterface) => {
    const outcome = await attempt(() => updateDocking({ id: d.id, is_delete: true }), '删除成功');
    if (outcome.ok) refresh();
  };

  const sendTest = async (d: DockingInterface) => {
    setTesting(d.id);
    const outcome = await attempt(() => testDocking(d.id));
    setTesting(null);
    if (!outcome.ok) return;
    const text = dockingTestText(outcome.data);
    if (outcome.data.ok) toast.success(text);
    else toast.warning(text);
  };

  const actions = (d: DockingInterface) => (
    <Flex wrap gap={4}>
      <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setEditing({ docking: d })}>
        编辑
      </Button>
      <Button
        size="small"
        type="link"
        icon={<SendOutlined />}
        loading={testing === d.id}
        onClick={() => void sendTest(d)}
      >
        发送测试
      </Button>
      <Button size="small" type="link" icon={<HistoryOutlined />} onClick={() => setLogOf(d)}>
        推送记录
      </Button>
      <Popconfirm
        title="删除对接接口"
        description={`确定删除对接接口「${d.name}」吗？`}
        okText="删除"
        okButtonProps={{ danger: true }}
        cancelText="取 消"
        onConfirm={() => remove(d)}
      >
        <Button size="small" type="link" danger icon={<DeleteOutlined />}>
          删除
        </Button>
      </Popconfirm>
    </Flex>
  );

  const columns: TableColumnsType<DockingInterface> = [
    { title: '名称', dataIndex: 'name', width: 140, ellipsis: true },
    {
      title: '地址',
      dataIndex: 'url',
      ellipsis: true,
      render: (url: string) => <span title={url}>{url}</span>,
    },
    { title: '令牌', dataIndex: 'token', width: 230, render: (token: string) => <TokenCell token={token} /> },
    {
      title: '推送',
      key: 'pushes',
      width: 230,
      render: (_, d) => <DockingPushSwitches docking={d} onSaved={refresh} />,
    },
    { title: '创建时间', dataIndex: 'created_at', width: 170 },
    { title: '操作', key: 'actions', width: 330, render: (_, d) => actions(d) },
  ];

  const rows = list.data?.list ?? [];
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无对接接口" />;

  return (
    <Drawer
      title={`对接接口 - ${user.user_name}`}
      open={open}
      size={mobile ? '100%' : 1080}
      onClose={() => setOpen(false)}
      afterOpenChange={(visible) => {
        if (!visible) onClosed();
      }}
    >
      <Flex wrap gap="small" style={{ marginBottom: 16 }}>
        <Input.Search
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onSearch={search}
          allowClear
          placeholder="名称 / 地址"
          style={{ width: mobile ? '100%' : 260 }}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ docking: null })}>
          新增接口
        </Button>
      </Flex>
      {mobile ? (
        <Spin spinning={list.isFetching}>
          <Flex vertical gap="small">
            {rows.length === 0
              ? empty
              : rows.map((d) => (
                  <Card key={d.id} size="small" title={d.name}>
                    <Flex vertical gap={4}>
                      <Typography.Text type="secondary" style={{ wordBreak: 'break-all' }}>
                        {d.url}
                      </Typography.Text>
                      <TokenCell token={d.token} />
                      <DockingPushSwitches docking={d} onSaved={refresh} />
                      <Typography.Text type="secondary">创建时间：{d.created_at}</Typography.Text>
                      {actions(d)}
                    </Flex>
                  </Card>
                ))}
            {rows.length > 0 && (
              <Pagination
                {...pager.pagination(list.data?.total ?? 0)}
                size="small"
                showQuickJumper={false}
                align="end"
              />
            )}
          </Flex>
        </Spin>
      ) : (
        <Table<DockingInterface>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={list.isFetching}
          locale={{ emptyText: empty }}
          scroll={{ x: 1200 }}
          pagination={pager.pagination(list.data?.total ?? 0)}
        />
      )}
      {logOf && <DockingDeliveriesModal docking={logOf} onClosed={() => setLogOf(null)} />}
      {editing && (
        <DockingFormDialog
          owner={user}
          docking={editing.docking}
          onSaved={refresh}
          onClosed={() => setEditing(null)}
        />
      )}
    </Drawer>
  );
}
