import { addTeamBody, type TeamRow } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import { addTeam, listPlanAssignees, listTeams, updateTeam } from '../../api/maintenance.ts';
import { EntityList } from '../../components/EntityList.tsx';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { loadOrThrow } from '../../components/feedback.ts';
import { text, useListQuery, type FilterFields, type ListColumn } from '../../components/list/index.ts';

interface Filters {
  keywords: string;
}

const FILTERS: FilterFields<Filters> = {
  keywords: text({ placeholder: '班组名称 / 备注', label: '关键字', width: 200 }),
};

const COLUMNS: ListColumn<TeamRow>[] = [
  { title: '班组', dataIndex: 'name', width: 160, card: false },
  { title: '负责人', dataIndex: 'lead_name', width: 110 },
  {
    title: '成员',
    key: 'members',
    render: (_, t) => t.members.map((m) => <Tag key={m.id}>{m.user_name}</Tag>),
  },
  { title: '保养计划', dataIndex: 'plan_count', width: 90 },
  { title: '未完成工单', dataIndex: 'open_orders', width: 100 },
  { title: '创建人', dataIndex: 'user_name', width: 100, from: 'xl' },
  { title: '备注', dataIndex: 'note', ellipsis: true, from: 'xl' },
];

interface TeamValues {
  name: string;
  lead_id?: number;
  member_ids: number[];
  note: string;
}

/** Adds or edits a team: members among the caller and the accounts below it, one of them the lead. */
export function TeamDialog({ row, onSaved, onClosed }: DialogProps<{ row: TeamRow | null }>) {
  const people = useQuery({
    queryKey: ['maintenance', 'plan-assignees', {}],
    queryFn: () => loadOrThrow(() => listPlanAssignees({})),
  });
  const known = new Map((people.data ?? []).map((u) => [u.id, u.user_name]));
  for (const m of row?.members ?? []) if (!known.has(m.id)) known.set(m.id, m.user_name);
  const options = [...known].map(([value, label]) => ({ value, label }));
  const initial: TeamValues = row
    ? {
        name: row.name,
        lead_id: row.lead_id,
        member_ids: row.members.map((m) => m.id).filter((id) => id !== row.lead_id),
        note: row.note,
      }
    : { name: '', member_ids: [], note: '' };
  return (
    <FormModal<TeamValues, { id: number }>
      title={row ? `编辑维修班组 ${row.name}` : '新增维修班组'}
      width={520}
      name="team"
      schema={addTeamBody}
      initialValues={initial}
      fields={[
        { name: 'name', label: '班组名称', required: true, maxLength: 50 },
        {
          name: 'lead_id',
          label: '负责人',
          kind: 'select',
          required: true,
          rules: [{ required: true, message: '请选择负责人' }],
          options,
          props: { showSearch: true, optionFilterProp: 'label' },
          extra: '按班组指派的保养计划，生成的保养单派给负责人，并通知全体成员',
        },
        {
          name: 'member_ids',
          label: '成员',
          kind: 'select',
          options,
          props: { mode: 'multiple', optionFilterProp: 'label' },
          extra: '负责人自动算作成员',
        },
        { name: 'note', label: '备注', kind: 'textarea', maxLength: 200 },
      ]}
      submit={(v) => {
        const body = { name: v.name, lead_id: v.lead_id!, member_ids: v.member_ids, note: v.note };
        return row ? updateTeam({ id: row.id, ...body }) : addTeam(body);
      }}
      success={row ? '班组已保存' : '班组已新增'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

/** 维修班组 (a tab of /maintenance-records): the teams plans are assigned to. */
export function TeamsTab() {
  const list = useListQuery({
    key: ['maintenance', 'teams'],
    filters: FILTERS,
    param: 'team.',
    load: (f, paging) => listTeams({ keywords: f.keywords.trim() || undefined, ...paging }),
  });
  return (
    <EntityList
      list={list}
      columns={COLUMNS}
      add="新增班组"
      empty={list.filtered ? '没有符合条件的班组' : '暂无维修班组'}
      remove={{
        title: '删除班组',
        question: (t) => `确定删除班组「${t.name}」吗？`,
        update: updateTeam,
      }}
      dialog={(row, props) => <TeamDialog row={row} {...props} />}
    />
  );
}
