import { addGroupBody, type GroupRow } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { addGroup, listGroups, listScreens, updateGroup } from '../../api/media-players.ts';
import { EntityList } from '../../components/EntityList.tsx';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import type { FormField } from '../../components/form-fields.tsx';
import { text, useListQuery, type FilterFields, type ListColumn } from '../../components/list/index.ts';

interface GroupForm {
  name: string;
  player_ids: number[];
}

export function GroupDialog({ group, onSaved, onClosed }: DialogProps<{ group: GroupRow | null }>) {
  const screens = useQuery({
    queryKey: ['media', 'screens', 'options'],
    queryFn: async () => (await listScreens({ page_size: 100 })).data?.list ?? [],
  });
  const fields: FormField<GroupForm>[] = [
    { name: 'name', label: '名称', required: true, maxLength: 50, placeholder: '如：西湖景区大屏' },
    {
      name: 'player_ids',
      label: '播放器',
      kind: 'select',
      required: true,
      props: { mode: 'multiple', optionFilterProp: 'label' },
      options: (screens.data ?? []).map((s) => ({
        value: s.id,
        label: `${s.ser_num}${s.desc ? ` ${s.desc}` : ''}`,
      })),
    },
  ];
  return (
    <FormModal
      title={group ? `编辑分组 ${group.name}` : '新增播放器分组'}
      width={600}
      name="group"
      fields={fields}
      schema={addGroupBody}
      initialValues={{ name: group?.name ?? '', player_ids: group?.player_ids ?? [] }}
      submit={(v) => {
        const body = { name: v.name.trim(), player_ids: v.player_ids };
        return group ? updateGroup({ id: group.id, ...body }) : addGroup(body);
      }}
      success={group ? '已保存，成员变化的播放器将收到新清单' : '新增成功'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

const FILTERS: FilterFields<{ keywords: string }> = {
  keywords: text({ placeholder: '名称', width: 220, search: true }),
};

const COLUMNS: ListColumn<GroupRow>[] = [
  { title: '名称', dataIndex: 'name', width: 180, ellipsis: true, card: false },
  { title: '播放器', dataIndex: 'players', ellipsis: true },
  { title: '更新时间', dataIndex: 'updated_at', width: 170, from: 'lg' },
];

/** 播放器分组: named sets of screens that schedules target. */
export function GroupsTab() {
  const list = useListQuery({
    key: ['media', 'groups'],
    filters: FILTERS,
    param: 'group.',
    load: (f, paging) => listGroups({ keywords: f.keywords.trim() || undefined, ...paging }),
  });
  return (
    <EntityList
      list={list}
      columns={COLUMNS}
      add="新增分组"
      empty={list.filtered ? '没有符合条件的分组' : '暂无播放器分组'}
      remove={{
        title: '删除分组',
        question: (g) => `确定删除分组「${g.name}」吗？`,
        update: updateGroup,
      }}
      dialog={(group, props) => <GroupDialog group={group} {...props} />}
    />
  );
}
