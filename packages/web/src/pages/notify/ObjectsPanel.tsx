import {
  NOTIFY_OBJECT_TYPES,
  addNotifyObjectBody,
  isManager,
  type NotifyObject,
  type NotifyObjectType,
} from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Empty, Form, Select, Tag } from 'antd';
import { useState } from 'react';
import { addObject, listObjects, updateObject } from '../../api/notify.ts';
import { listDocking, listUsers } from '../../api/users.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { loadOrThrow } from '../../components/feedback.ts';
import type { FormField } from '../../components/form-fields.tsx';
import { EntityList } from '../../components/EntityList.tsx';
import {
  select,
  text,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { useSession } from '../../session/store.ts';

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

/** Per type: the target's label, hint under it and input. */
const TARGETS: Record<NotifyObjectType, Omit<FormField<ObjectForm>, 'name'>> = {
  user: { label: '用户', extra: '该用户会在站内消息中收到提醒', render: () => <UserTarget /> },
  email: {
    label: '邮箱地址',
    extra: '提醒以邮件发送到该地址',
    maxLength: 254,
    placeholder: 'name@example.com',
    props: { inputMode: 'email' },
  },
  docking: {
    label: '对接接口',
    extra: '以签名的 JSON 推送到该接口（X-Signature: sha256=HMAC(正文, 接口令牌)）',
    render: () => <DockingTarget />,
  },
  wecom: {
    label: '机器人地址',
    extra: '企业微信群 → 添加群机器人 → 复制 Webhook 地址',
    maxLength: 500,
    placeholder: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…',
    props: { inputMode: 'url' },
  },
  dingtalk: {
    label: '机器人地址',
    extra: '钉钉群 → 智能群助手 → 添加自定义机器人 → 复制 Webhook 地址',
    maxLength: 500,
    placeholder: 'https://oapi.dingtalk.com/robot/send?access_token=…',
    props: { inputMode: 'url' },
  },
};

const FIELDS: FormField<ObjectForm>[] = [
  { name: 'name', label: '名称', required: true, maxLength: 50, placeholder: '例如：保洁主管、值班邮箱' },
  {
    name: 'type',
    label: '类型',
    kind: 'select',
    required: true,
    rules: [],
    options: TYPE_OPTIONS,
    props: { 'aria-label': '类型' },
  },
  // One target field per type, only the chosen type's shown.
  ...TYPE_OPTIONS.map(({ value: type }) => ({
    ...TARGETS[type],
    name: 'target' as const,
    required: true,
    hidden: (v: ObjectForm) => v.type !== type,
  })),
];

export function ObjectDialog({
  object,
  onSaved,
  onClosed,
}: DialogProps<
  {
    object: NotifyObject | null;
  },
  NotifyObject
>) {
  const [form] = Form.useForm<ObjectForm>();
  return (
    <FormModal
      form={form}
      title={object ? `编辑提醒对象 ${object.name}` : '新增提醒对象'}
      width={560}
      name="notify-object"
      fields={FIELDS}
      schema={addNotifyObjectBody}
      initialValues={{
        name: object?.name ?? '',
        type: object?.type ?? 'user',
        target: object?.target ?? '',
      }}
      onValuesChange={(changed) => {
        if (changed.type) form.setFieldValue('target', '');
      }}
      submit={(v) => {
        const body = { name: v.name.trim(), type: v.type, target: String(v.target).trim() };
        return object ? updateObject({ id: object.id, ...body }) : addObject(body);
      }}
      success={object ? '修改成功' : '新增成功'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

interface Search {
  type: NotifyObjectType | undefined;
  keywords: string;
}

const FILTERS: FilterFields<Search> = {
  type: select({
    options: TYPE_OPTIONS,
    placeholder: '全部类型',
    label: '按类型筛选',
    width: 170,
    instant: true,
  }),
  keywords: text({ placeholder: '名称 / 目标', width: 240, search: true }),
};

const typeTag = (t: NotifyObjectType) => <Tag color={TYPE_COLORS[t]}>{NOTIFY_OBJECT_TYPES[t]}</Tag>;

const COLUMNS: ListColumn<NotifyObject>[] = [
  { title: '名称', dataIndex: 'name', width: 160, ellipsis: true, card: false },
  { title: '类型', dataIndex: 'type', width: 150, render: typeTag, card: false },
  {
    title: '目标',
    dataIndex: 'target_label',
    ellipsis: true,
    render: (label: string) => <span title={label}>{label}</span>,
  },
  { title: '创建时间', dataIndex: 'created_at', width: 170 },
];

/** 提醒对象: who (or what) rules notify. */
export function ObjectsPanel() {
  const list = useListQuery({
    key: ['notify', 'objects'],
    filters: FILTERS,
    load: (f, paging) => listObjects({ keywords: f.keywords.trim() || undefined, type: f.type, ...paging }),
  });
  return (
    <EntityList
      list={list}
      columns={COLUMNS}
      add="新增对象"
      empty={list.filtered ? '没有符合条件的对象' : '暂无提醒对象'}
      cardExtra={(o) => typeTag(o.type)}
      remove={{
        title: '删除提醒对象',
        question: (o) => `确定删除「${o.name}」吗？规则将不再提醒它。`,
        update: updateObject,
      }}
      dialog={(object, props) => <ObjectDialog object={object} {...props} />}
    />
  );
}
