import {
  DeleteOutlined,
  EditOutlined,
  ProfileOutlined,
  PlusOutlined,
  ReloadOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { CODE, TOILET_STATUS, TOILET_STATUS_LABELS, type ToiletRow } from '@se/core';
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
  Switch,
  Table,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState, type ReactNode } from 'react';
import { getToilet, listToilets, updateToilet } from '../../api/toilets.ts';
import { usePager } from '../../components/pager.ts';
import { toast } from '../../components/toast.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { ToiletFormDialog, type ToiletDialogTarget } from './ToiletFormDialog.tsx';
import { usePageClamp } from '../devices/use-page-clamp.ts';
import { addressText, starAverage, withFlag, type ToiletFlag } from './toilet-text.ts';
import { toiletsKey } from './keys.ts';
import { StatusTags } from './StatusTags.tsx';
import { ToiletDetailDrawer } from './ToiletDetailDrawer.tsx';

interface Search {
  keywords: string;
  flags: ToiletFlag[];
}

const NO_SEARCH: Search = { keywords: '', flags: [] };

const FLAG_OPTIONS = (Object.keys(TOILET_STATUS) as ToiletFlag[]).map((f) => ({
  value: f,
  label: TOILET_STATUS_LABELS[f],
}));
const statusOf = (flags: ToiletFlag[]): number | undefined =>
  flags.length ? flags.reduce((s, f) => s | TOILET_STATUS[f], 0) : undefined;

const dash = (v: string) => v || '—';

/** 厕所: the smart toilets the caller can see, their status switches and registration. */
export function ToiletList() {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const pager = usePager();
  const [draft, setDraft] = useState<Search>(NO_SEARCH);
  const [applied, setApplied] = useState({ search: NO_SEARCH, seq: 0 });
  const [dialog, setDialog] = useState<ToiletDialogTarget | null>(null);
  const [detailId, setDetailId] = useState<number | null>(null);
  // "id:flag" of the switch being saved.
  const [switching, setSwitching] = useState<string | null>(null);

  const toilets = useQuery({
    queryKey: [...toiletsKey, 'list', applied, pager.page, pager.pageSize],
    queryFn: () =>
      loadOrThrow(() =>
        listToilets({
          keywords: applied.search.keywords || undefined,
          status: statusOf(applied.search.flags),
          page: pager.page,
          page_size: pager.pageSize,
        }),
      ),
    placeholderData: keepPreviousData,
  });
  usePageClamp(pager, toilets.data);

  const apply = (search: Search) => {
    setApplied((a) => ({ search: { ...search, keywords: search.keywords.trim() }, seq: a.seq + 1 }));
    pager.reset();
  };
  const refresh = () => void queryClient.invalidateQueries({ queryKey: toiletsKey });

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
      refresh();
    }
  };

  const remove = async (toilet: ToiletRow) => {
    const outcome = await attempt(() => updateToilet({ id: toilet.id, is_delete: true }), '删除成功');
    if (outcome.ok) refresh();
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

  const actions = (toilet: ToiletRow): ReactNode => (
    <Flex wrap={mobile} gap={0}>
      <Button size="small" type="link" icon={<ProfileOutlined />} onClick={() => setDetailId(toilet.id)}>
        详情
      </Button>
      <Button
        size="small"
        type="link"
        icon={<EditOutlined />}
        onClick={() => setDialog({ mode: 'edit', toilet })}
      >
        编辑
      </Button>
      <Popconfirm
        title="删除厕所"
        description={`确定删除 ${toilet.name} 吗？`}
        okText="删除"
        okButtonProps={{ danger: true }}
        cancelText="取 消"
        onConfirm={() => remove(toilet)}
      >
        <Button size="small" type="link" danger icon={<DeleteOutlined />}>
          删除
        </Button>
      </Popconfirm>
    </Flex>
  );

  const stars = (t: ToiletRow) => (
    <span>
      {starAverage(t.star_sum, t.star_count)}
      {t.star_count > 0 && <Typography.Text type="secondary">（{t.star_count} 次）</Typography.Text>}
    </span>
  );

  const columns: TableColumnsType<ToiletRow> = [
    {
      title: '名称',
      dataIndex: 'name',
      width: 150,
      fixed: 'left',
      ellipsis: true,
      render: (name: string, t) => (
        <Typography.Link onClick={() => setDetailId(t.id)} title={`${name}：查看详情`}>
          {name}
        </Typography.Link>
      ),
    },
    // The address takes what the other columns leave.
    { title: '地址', key: 'address', ellipsis: true, render: (_, t) => dash(addressText(t)) },
    { title: '状态', dataIndex: 'status', width: 120, render: (s: number) => <StatusTags status={s} /> },
    { title: '清洁中', key: 'cleaning', width: 80, render: (_, t) => flagSwitch(t, 'cleaning') },
    { title: '维修中', key: 'repair', width: 80, render: (_, t) => flagSwitch(t, 'repair') },
    { title: '评分', key: 'stars', width: 90, render: (_, t) => stars(t) },
    { title: '网关', dataIndex: 'gateway_ser_num', width: 140, ellipsis: true, render: dash },
    { title: '绑定用户', dataIndex: 'owners', width: 120, ellipsis: true, render: dash },
    { title: '操作', key: 'actions', width: 220, fixed: 'right', render: (_, t) => actions(t) },
  ];

  const rows = toilets.data?.list ?? [];
  const total = toilets.data?.total ?? 0;
  const blank = !applied.search.keywords && applied.search.flags.length === 0;
  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={blank ? '暂无厕所，点击“登记厕所”添加' : '没有符合条件的厕所'}
    />
  );

  const card = (t: ToiletRow) => (
    <Card
      key={t.id}
      size="small"
      title={t.name}
      extra={<StatusTags status={t.status} />}
      styles={{ body: { paddingBottom: 4 } }}
    >
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'address', label: '地址', children: dash(addressText(t)) },
          { key: 'cleaning', label: '清洁中', children: flagSwitch(t, 'cleaning') },
          { key: 'repair', label: '维修中', children: flagSwitch(t, 'repair') },
          { key: 'stars', label: '评分', children: stars(t) },
          { key: 'gateway', label: '网关', children: dash(t.gateway_ser_num) },
          { key: 'owners', label: '绑定用户', children: dash(t.owners) },
        ]}
      />
      {actions(t)}
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
          placeholder="名称 / 地址"
          aria-label="关键字"
          style={{ width: mobile ? '100%' : 240 }}
        />
        <Select<ToiletFlag[]>
          mode="multiple"
          value={draft.flags}
          onChange={(flags) => setDraft({ ...draft, flags })}
          options={FLAG_OPTIONS}
          placeholder="状态（同时满足）"
          aria-label="状态"
          allowClear
          style={{ width: mobile ? '100%' : 240 }}
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
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setDialog({ mode: 'add' })}
          style={{ marginInlineStart: mobile ? 0 : 'auto' }}
        >
          登记厕所
        </Button>
      </Flex>

      {mobile ? (
        <Spin spinning={toilets.isFetching}>
          <Flex vertical gap="small" style={{ minHeight: 120 }}>
            {rows.length === 0 ? empty : rows.map(card)}
            {total > 0 && (
              <Pagination {...pager.pagination(total)} size="small" showQuickJumper={false} align="end" />
            )}
          </Flex>
        </Spin>
      ) : (
        <Table<ToiletRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={toilets.isFetching}
          locale={{ emptyText: empty }}
          scroll={{ x: columns.reduce((w, c) => w + (Number(c.width) || 160), 0) }}
          pagination={pager.pagination(total)}
        />
      )}

      {detailId !== null && (
        <ToiletDetailDrawer key={detailId} toiletId={detailId} onClose={() => setDetailId(null)} />
      )}
      {dialog && (
        <ToiletFormDialog
          key={dialog.mode === 'edit' ? dialog.toilet.id : 'add'}
          target={dialog}
          onSaved={refresh}
          onClosed={() => setDialog(null)}
        />
      )}
    </>
  );
}
