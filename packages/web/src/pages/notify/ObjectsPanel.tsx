import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  NOTIFY_OBJECT_TYPES,
  addNotifyObjectBody,
  isManager,
  type NotifyObject,
  type NotifyObjectType,
} from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Empty,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Table,
  Tag,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { addObject, listObjects, updateObject } from '../../api/notify.ts';
import { listDocking, listUsers } from '../../api/users.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { zodRule } from '../../components/form-rules.ts';
import { usePager } from '../../components/pager.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { useSession } from '../../session/store.ts';

const KEY = ['notify', 'objects'] as const;
const TYPE_COLORS: Record<NotifyObjectType, string> = {
  user: 'blue',
  email: 'green',
  docking: 'purple',
  wecom: 'cyan',
  dingtalk: 'geekblue',
};
const TYPE_OPTIONS = Object.entries(NOTIFY_OBJECT_TYPES).map(([value, label]) => ({
  value: value as NotifyObjectType,
  label,
}));

interface ObjectForm {
  name: string;
  type: NotifyObjectType;
  target: string;
}

/** The user to notify: oneself, or (for a manager) anyone of one's own users, searched by name. */
function UserTarget({ value, onChange }: { value?: string; onChange?: (v: string) => void }) {
  const me = {
    id: useSession((s) => s.userID),
    name: useSession((s) => s.userName),
    permission: useSession((s) => s.permission),
  };
  const [search, setSearch] = useState('');
  const manager = isManager(me.permission);
  const users = useQuery({
    queryKey: ['notify', 'user-options', search],
    queryFn: () => loadOrThrow(() => listUsers({ keywords: search || undefined, page: 1, page_size: 20 })),
    enabled: manager,
  });
  const options = [
    { value: String(me.id), label: `${me.name}（自己）` },
    ...(users.data?.list ?? [])
      .filter((u) => u.id !== me.id)
      .map((u) => ({ value: String(u.id), label: u.user_name })),
  ];
  return (
    <Select
      value={value || undefined}
      onChange={onChange}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={users.isFetching}
      options={options}
      placeholder={manager ? '搜索用户名' : '选择用户'}
      aria-label="提醒的用户"
    />
  );
}

function DockingTarget({ value, onChange }: { value?: string; onChange?: (v: string) => void }) {
  const userId = useSession((s) => s.userID);
  const list = useQuery({
    queryKey: ['notify', 'docking-options', userId],
    queryFn: () => loadOrThrow(() => listDocking({ target_user_id: userId, page: 1, page_size: 100 })),
  });
  return (
    <Select
      value={value || undefined}
      onChange={onChange}
      loading={list.isFetching}
      options={(list.data?.list ?? []).map((d) => ({ value: String(d.id), label: `${d.name}（${d.url}）` }))}
      placeholder="选择自己的对接接口"
      aria-label="对接接口"
      notFoundContent={
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无对接接口，请先在用户管理中添加" />
      }
    />
  );
}

const TARGET_HINT: Record<NotifyObjectType, string> = {
  user: '该用户会在站内消息中收到提醒',
  email: '提醒以邮件发送到该地址',
  docking: '以签名的 JSON 推送到该接口（X-Signature: sha256=HMAC(正文, 接口令牌)）',
  wecom: '企业微信群 → 添加群机器人 → 复制 Webhook 地址',
  dingtalk: '钉钉群 → 智能群助手 → 添加自定义机器人 → 复制 Webhook 地址',
};

export function ObjectDialog({
  object,
  onSaved,
  onClosed,
}: {
  object: NotifyObject | null;
  onSaved: () => void;
  onClosed: () => void;
}) {
  const mobile = useIsMobile();
  const [form] = Form.useForm<ObjectForm>();
  const type = Form.useWatch('type', form) ?? object?.type ?? 'user';
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    let v: ObjectForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    const body = { name: v.name.trim(), type: v.type, target: String(v.target).trim() };
    const out = object
      ? await attempt(() => updateObject({ id: object.id, ...body }), '修改成功')
      : await attempt(() => addObject(body), '新增成功');
    setSaving(false);
    if (!out.ok) return;
    onSaved();
    setOpen(false);
  };

  const rule = zodRule(addNotifyObjectBody, 'target');
  return (
    <Modal
      title={object ? `编辑提醒对象 ${object.name}` : '新增提醒对象'}
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
      <Form<ObjectForm>
        form={form}
        layout="vertical"
        name="notify-object"
        autoComplete="off"
        initialValues={{
          name: object?.name ?? '',
          type: object?.type ?? 'user',
          target: object?.target ?? '',
        }}
        onValuesChange={(changed: Partial<ObjectForm>) => {
          if (changed.type) form.setFieldValue('target', '');
        }}
      >
        <Form.Item label="名称" name="name" required rules={[zodRule(addNotifyObjectBody, 'name')]}>
          <Input maxLength={50} placeholder="例如：保洁主管、值班邮箱" />
        </Form.Item>
        <Form.Item label="类型" name="type" required>
          <Select options={TYPE_OPTIONS} aria-label="类型" />
        </Form.Item>
        <Form.Item
          label={
            {
              user: '用户',
              email: '邮箱地址',
              docking: '对接接口',
              wecom: '机器人地址',
              dingtalk: '机器人地址',
            }[type]
          }
          name="target"
          required
          rules={[rule]}
          extra={TARGET_HINT[type]}
        >
          {type === 'user' ? (
            <UserTarget />
          ) : type === 'docking' ? (
            <DockingTarget />
          ) : (
            <Input
              maxLength={type === 'email' ? 254 : 500}
              inputMode={type === 'email' ? 'email' : 'url'}
              placeholder={
                type === 'email'
                  ? 'name@example.com'
                  : type === 'wecom'
                    ? 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…'
                    : 'https://oapi.dingtalk.com/robot/send?access_token=…'
              }
            />
          )}
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 提醒对象: who (or what) rules notify. */
export function ObjectsPanel() {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const pager = usePager();
  const [draft, setDraft] = useState('');
  const [keywords, setKeywords] = useState('');
  const [type, setType] = useState<NotifyObjectType | undefined>();
  const [editing, setEditing] = useState<{ object: NotifyObject | null } | null>(null);

  const list = useQuery({
    queryKey: [...KEY, keywords, type, pager.page, pager.pageSize],
    queryFn: () =>
      loadOrThrow(() =>
        listObjects({ keywords: keywords || undefined, type, page: pager.page, page_size: pager.pageSize }),
      ),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: KEY });

  const remove = async (o: NotifyObject) => {
    const out = await attempt(() => updateObject({ id: o.id, is_delete: true }), '删除成功');
    if (out.ok) refresh();
  };

  const columns: TableColumnsType<NotifyObject> = [
    { title: '名称', dataIndex: 'name', width: 160, ellipsis: true },
    {
      title: '类型',
      dataIndex: 'type',
      width: 150,
      render: (t: NotifyObjectType) => <Tag color={TYPE_COLORS[t]}>{NOTIFY_OBJECT_TYPES[t]}</Tag>,
    },
    {
      title: '目标',
      dataIndex: 'target_label',
      ellipsis: true,
      render: (label: string) => <span title={label}>{label}</span>,
    },
    ...(mobile ? [] : [{ title: '创建时间', dataIndex: 'created_at', width: 170 }]),
    {
      title: '操作',
      key: 'actions',
      width: 150,
      render: (_, o) => (
        <Flex gap={4}>
          <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setEditing({ object: o })}>
            编辑
          </Button>
          <Popconfirm
            title="删除提醒对象"
            description={`确定删除「${o.name}」吗？规则将不再提醒它。`}
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取 消"
            onConfirm={() => remove(o)}
          >
            <Button size="small" type="link" danger icon={<DeleteOutlined />}>
              删除
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  const filtered = Boolean(keywords || type);
  return (
    <>
      <Flex wrap gap="small" style={{ marginBottom: 16 }}>
        <Select<NotifyObjectType | undefined>
          value={type}
          onChange={(t) => {
            setType(t);
            pager.reset();
          }}
          allowClear
          placeholder="全部类型"
          aria-label="按类型筛选"
          options={TYPE_OPTIONS}
          style={{ width: 170 }}
        />
        <Input.Search
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onSearch={(text) => {
            setKeywords(text.trim());
            pager.reset();
          }}
          allowClear
          placeholder="名称 / 目标"
          style={{ width: mobile ? '100%' : 240 }}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ object: null })}>
          新增对象
        </Button>
      </Flex>
      <Table<NotifyObject>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={filtered ? '没有符合条件的对象' : '暂无提醒对象'}
            />
          ),
        }}
        pagination={pager.pagination(list.data?.total ?? 0)}
      />
      {editing && (
        <ObjectDialog object={editing.object} onSaved={refresh} onClosed={() => setEditing(null)} />
      )}
    </>
  );
}
