import { ProfileOutlined } from '@ant-design/icons';
import { CODE, TOILET_STATUS, TOILET_STATUS_LABELS, type ToiletRow } from '@se/core';
import { Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { getToilet, listToilets, updateToilet } from '../../api/toilets.ts';
import { attempt } from '../../components/feedback.ts';
import { DeviceLink, UserLinks } from '../../components/ObjectLinks.tsx';
import { TOILET_PARAM, idParam, useLinkedParam } from '../../components/object-links.ts';
import {
  RowActions,
  ListView,
  multiSelect,
  text,
  useDialog,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { toast } from '../../components/toast.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { toiletsKey } from './keys.ts';
import { StatusTags } from './StatusTags.tsx';
import { ToiletDetailDrawer } from './ToiletDetailDrawer.tsx';
import { ToiletFormDialog, type ToiletDialogTarget } from './ToiletFormDialog.tsx';
import { addressText, starAverage, withFlag, type ToiletFlag } from './toilet-text.ts';

interface Search {
  keywords: string;
  flags: ToiletFlag[];
}

const FILTERS: FilterFields<Search> = {
  keywords: text({ placeholder: '名称 / 地址', label: '关键字', width: 240, search: true }),
  flags: multiSelect<ToiletFlag>({
    options: (Object.keys(TOILET_STATUS) as ToiletFlag[]).map((f) => ({
      value: f,
      label: TOILET_STATUS_LABELS[f],
    })),
    placeholder: '状态（同时满足）',
    label: '状态',
    width: 240,
  }),
};

const statusOf = (flags: ToiletFlag[]): number | undefined =>
  flags.length ? flags.reduce((s, f) => s | TOILET_STATUS[f], 0) : undefined;

const dash = (v: string) => v || '—';

const stars = (t: ToiletRow) => (
  <span>
    {starAverage(t.star_sum, t.star_count)}
    {t.star_count > 0 && <Typography.Text type="secondary">（{t.star_count} 次）</Typography.Text>}
  </span>
);

/** 厕所: the smart toilets the caller can see, their status switches and registration. */
export function ToiletList() {
  const mobile = useIsMobile();
  const list = useListQuery({
    key: toiletsKey,
    filters: FILTERS,
    load: (search, paging) =>
      listToilets({
        keywords: search.keywords.trim() || undefined,
        status: statusOf(search.flags),
        ...paging,
      }),
  });
  const dialog = useDialog<ToiletDialogTarget>();
  const detail = useDialog<number>();
  // A link to a toilet (?toilet=<id>, from a dashboard, a review, a record …) opens its detail.
  const [linked, clearLinked] = useLinkedParam(TOILET_PARAM);
  const linkedId = idParam(linked);
  useEffect(() => {
    if (linkedId !== null) detail.open(linkedId);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the link changes
  }, [linkedId]);
  const closeDetail = () => {
    detail.close();
    clearLinked();
  };
  // "id:flag" of the switch being saved.
  const [switching, setSwitching] = useState<string | null>(null);

  const toggle = async (toilet: ToiletRow, flag: ToiletFlag, on: boolean) => {
    setSwitching(`${toilet.id}:${flag}`);
    // The alarm flag is the devices' to set: start from the current status, not the row's,
    // so switching 清洁中 does not undo an alarm raised since the list loaded.
    let status = toilet.status;
    try {
      const fresh = await getToilet(toilet.id);
      if (fresh.code === CODE.ok) status = fresh.data.status;
    } catch {
      // The update below reports the network problem.
    }
    const outcome = await attempt(() => updateToilet({ id: toilet.id, status: withFlag(status, flag, on) }));
    setSwitching(null);
    if (outcome.ok) {
      toast.success(`${toilet.name}：${on ? '已设为' : '已取消'}${TOILET_STATUS_LABELS[flag]}`);
      list.refresh();
    }
  };

  const flagSwitch = (toilet: ToiletRow, flag: ToiletFlag) => (
    <Switch
      size="small"
      checked={(toilet.status & TOILET_STATUS[flag]) !== 0}
      loading={switching === `${toilet.id}:${flag}`}
      aria-label={`${toilet.name}${TOILET_STATUS_LABELS[flag]}`}
      onChange={(on) => void toggle(toilet, flag, on)}
    />
  );

  const actions = (toilet: ToiletRow) => (
    <RowActions
      wrap={mobile}
      detail={() => detail.open(toilet.id)}
      detailIcon={<ProfileOutlined />}
      edit={() => dialog.open({ mode: 'edit', toilet })}
      remove={{
        title: '删除厕所',
        question: `确定删除 ${toilet.name} 吗？`,
        call: () => updateToilet({ id: toilet.id, is_delete: true }),
        onDeleted: list.refresh,
      }}
    />
  );

  const columns: ListColumn<ToiletRow>[] = [
    {
      title: '名称',
      dataIndex: 'name',
      width: 150,
      fixed: 'left',
      ellipsis: true,
      card: false,
      render: (name: string, t) => (
        <Typography.Link onClick={() => detail.open(t.id)} title={`${name}：查看详情`}>
          {name}
        </Typography.Link>
      ),
    },
    { title: '地址', key: 'address', width: 180, ellipsis: true, render: (_, t) => dash(addressText(t)) },
    {
      title: '状态',
      dataIndex: 'status',
      width: 120,
      card: false,
      render: (s: number) => <StatusTags status={s} />,
    },
    { title: '清洁中', key: 'cleaning', width: 80, render: (_, t) => flagSwitch(t, 'cleaning') },
    { title: '维修中', key: 'repair', width: 80, render: (_, t) => flagSwitch(t, 'repair') },
    { title: '评分', key: 'stars', width: 90, render: (_, t) => stars(t) },
    {
      title: '网关',
      dataIndex: 'gateway_ser_num',
      width: 140,
      ellipsis: true,
      from: 'xl',
      render: (sn: string, t) => <DeviceLink kind="gateway" id={t.gateway_id} serNum={sn} />,
    },
    {
      title: '绑定用户',
      dataIndex: 'owners',
      width: 120,
      ellipsis: true,
      from: 'xl',
      render: (owners: string) => <UserLinks names={owners} />,
    },
  ];

  return (
    <>
      <ListView
        list={list}
        add={{ label: '登记厕所', onClick: () => dialog.open({ mode: 'add' }) }}
        columns={columns}
        rowKey="id"
        empty={list.filtered ? '没有符合条件的厕所' : '暂无厕所，点击“登记厕所”添加'}
        actions={actions}
        actionsWidth={200}
        cardTitle={(t) => t.name}
        cardExtra={(t) => <StatusTags status={t.status} />}
      />
      {detail.target !== null && (
        <ToiletDetailDrawer key={detail.target} toiletId={detail.target} onClose={closeDetail} />
      )}
      {dialog.target && (
        <ToiletFormDialog
          key={dialog.target.mode === 'edit' ? dialog.target.toilet.id : 'add'}
          target={dialog.target}
          onSaved={list.refresh}
          onClosed={dialog.close}
        />
      )}
    </>
  );
}
