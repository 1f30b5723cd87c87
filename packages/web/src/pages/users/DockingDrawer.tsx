import { HistoryOutlined, SendOutlined } from '@ant-design/icons';
import { addDockingBody, updateDockingBody, type DockingInterface, type UserRow } from '@se/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { addDocking, listDocking, testDocking, updateDocking } from '../../api/users.ts';
import { SecretToken } from '../../components/SecretToken.tsx';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { attempt } from '../../components/feedback.ts';
import type { FormField } from '../../components/form-fields.tsx';
import { EntityList } from '../../components/EntityList.tsx';
import {
  RowAction,
  text,
  useDialog,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { toast } from '../../components/toast.ts';
import { MountedDrawer } from '../../components/MountedDrawer.tsx';
import { DockingDeliveriesModal, DockingPushSwitches } from '../notify/DockingDeliveries.tsx';
import { dockingTestText, maskToken } from './docking-text.ts';

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
}: DialogProps<{
  owner: UserRow;
  docking: DockingInterface | null;
}>) {
  const fields: FormField<DockingForm>[] = [
    { name: 'name', label: '名称', required: true, maxLength: 50, placeholder: '请输入名称' },
    {
      name: 'url',
      label: '地址',
      required: true,
      maxLength: 500,
      placeholder: 'http:// 或 https:// 开头的网址',
      props: { inputMode: 'url' },
    },
    {
      name: 'token',
      label: '令牌',
      maxLength: 200,
      placeholder: docking ? '输入新令牌以替换' : '选填',
      extra: docking ? '留空则保持当前令牌不变' : '留空将由系统自动生成',
    },
  ];
  return (
    <FormModal
      title={docking ? `编辑对接接口 ${docking.name}` : '新增对接接口'}
      width={560}
      name="docking"
      fields={fields}
      schema={docking ? updateDockingBody : addDockingBody}
      initialValues={{ name: docking?.name ?? '', url: docking?.url ?? '', token: '' }}
      submit={(v) => {
        const body = { name: v.name.trim(), url: v.url.trim(), token: (v.token ?? '').trim() };
        return docking
          ? updateDocking({ id: docking.id, ...body })
          : addDocking({ ...body, target_user_id: owner.id });
      }}
      success={docking ? '修改成功' : '新增成功'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

const FILTERS: FilterFields<{ keywords: string }> = {
  keywords: text({ placeholder: '名称 / 地址', width: 260, search: true }),
};

/** 对接接口 of one user: list, add, edit, delete and a test call to each. */
export function DockingDrawer({ user, onClosed }: { user: UserRow; onClosed: () => void }) {
  const queryClient = useQueryClient();
  const log = useDialog<DockingInterface>();
  const [testing, setTesting] = useState<number | null>(null);

  const list = useListQuery({
    key: ['users', 'docking', user.id],
    filters: FILTERS,
    local: true,
    load: (f, paging) =>
      listDocking({ target_user_id: user.id, keywords: f.keywords.trim() || undefined, ...paging }),
  });

  const refresh = () => {
    list.refresh();
    // Every change is audited; an open audit tab should show it.
    void queryClient.invalidateQueries({ queryKey: ['users', 'audit'] });
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

  const buttons = (d: DockingInterface) => (
    <>
      <RowAction icon={<SendOutlined />} loading={testing === d.id} onClick={() => void sendTest(d)}>
        发送测试
      </RowAction>
      <RowAction icon={<HistoryOutlined />} onClick={() => log.open(d)}>
        推送记录
      </RowAction>
    </>
  );

  const columns: ListColumn<DockingInterface>[] = [
    { title: '名称', dataIndex: 'name', width: 140, ellipsis: true, card: false },
    {
      title: '地址',
      dataIndex: 'url',
      ellipsis: true,
      render: (url: string) => <span title={url}>{url}</span>,
    },
    {
      title: '令牌',
      dataIndex: 'token',
      width: 230,
      render: (token: string) => <SecretToken token={token} masked={maskToken(token)} code />,
    },
    {
      title: '推送',
      key: 'pushes',
      width: 230,
      render: (_, d) => <DockingPushSwitches docking={d} onSaved={refresh} />,
    },
    { title: '创建时间', dataIndex: 'created_at', width: 170 },
  ];

  return (
    <MountedDrawer title={`对接接口 - ${user.user_name}`} width={1080} onClosed={onClosed}>
      <EntityList
        list={list}
        columns={columns}
        add="新增接口"
        empty="暂无对接接口"
        actionsWidth={330}
        remove={{
          title: '删除对接接口',
          question: (d) => `确定删除对接接口「${d.name}」吗？`,
          update: updateDocking,
        }}
        rowButtons={buttons}
        onChanged={refresh}
        dialog={(docking, props) => <DockingFormDialog owner={user} docking={docking} {...props} />}
      />
      {log.target && <DockingDeliveriesModal docking={log.target} onClosed={log.close} />}
    </MountedDrawer>
  );
}
