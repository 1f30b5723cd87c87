import { DeleteOutlined, EditOutlined, HistoryOutlined, PlusOutlined } from '@ant-design/icons';
import { FORMULA_VAR_LABELS, RULE_SCOPES, type FormulaVar, type RuleHitRow, type RuleRow } from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Drawer,
  Empty,
  Flex,
  Input,
  Popconfirm,
  Select,
  Switch,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { listRuleHits, listRules, updateRule } from '../../api/rules.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { usePager } from '../../components/pager.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { FormulaRuleDialog } from './FormulaRuleDialog.tsx';

const seconds = (s: number) =>
  s === 0 ? '立即' : s % 3600 === 0 ? `${s / 3600} 小时` : s % 60 === 0 ? `${s / 60} 分钟` : `${s} 秒`;

const valuesText = (values: Record<string, unknown>) =>
  Object.entries(values)
    .map(([k, v]) => {
      const label = FORMULA_VAR_LABELS[k as FormulaVar] ?? k;
      return `${label}：${typeof v === 'boolean' ? (v ? '触发' : '未触发') : String(v)}`;
    })
    .join('；');

/** 触发记录 of one rule: when, which device, with what readings, and whether it was handed on. */
function HitsDrawer({ rule, onClosed }: { rule: RuleRow; onClosed: () => void }) {
  const mobile = useIsMobile();
  const [open, setOpen] = useState(true);
  const pager = usePager();
  const hits = useQuery({
    queryKey: ['rules', 'hits', rule.id, pager.page, pager.pageSize],
    queryFn: () =>
      loadOrThrow(() => listRuleHits({ rule_id: rule.id, page: pager.page, page_size: pager.pageSize })),
    placeholderData: keepPreviousData,
  });
  const columns: TableColumnsType<RuleHitRow> = [
    { title: '触发时间', dataIndex: 'fired_at', width: 170 },
    {
      title: '设备',
      key: 'device',
      width: 200,
      render: (_, h) => (h.desc ? `${h.ser_num}（${h.desc}）` : h.ser_num),
    },
    { title: '数据', key: 'values', render: (_, h) => valuesText(h.values) },
    {
      title: '通知',
      dataIndex: 'dispatch_error',
      width: 160,
      render: (e: string | null) =>
        e ? (
          <Tag color="red" title={e}>
            派发失败
          </Tag>
        ) : (
          <Tag color="green">已派发</Tag>
        ),
    },
  ];
  return (
    <Drawer
      title={`触发记录 - ${rule.name}`}
      open={open}
      size={mobile ? '100%' : 900}
      onClose={() => setOpen(false)}
      afterOpenChange={(v) => {
        if (!v) onClosed();
      }}
    >
      <Typography.Paragraph>
        公式：<Typography.Text code>{rule.formula}</Typography.Text>
      </Typography.Paragraph>
      <Table<RuleHitRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={hits.data?.list ?? []}
        loading={hits.isFetching}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无触发记录" /> }}
        scroll={{ x: 700 }}
        pagination={pager.pagination(hits.data?.total ?? 0)}
      />
    </Drawer>
  );
}

/** /notify-formula: the caller's formula rules. */
export default function FormulaTab() {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const pager = usePager();
  const [draft, setDraft] = useState('');
  const [keywords, setKeywords] = useState('');
  const [enabled, setEnabled] = useState<boolean | undefined>(undefined);
  const [editing, setEditing] = useState<{ rule: RuleRow | null } | null>(null);
  const [history, setHistory] = useState<RuleRow | null>(null);
  const [toggling, setToggling] = useState<number | null>(null);

  const list = useQuery({
    queryKey: ['rules', 'list', keywords, enabled, pager.page, pager.pageSize],
    queryFn: () =>
      loadOrThrow(() =>
        listRules({ keywords: keywords || undefined, enabled, page: pager.page, page_size: pager.pageSize }),
      ),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['rules', 'list'] });

  const toggle = async (r: RuleRow, on: boolean) => {
    setToggling(r.id);
    const outcome = await attempt(() => updateRule({ id: r.id, enabled: on }), on ? '已启用' : '已停用');
    setToggling(null);
    if (outcome.ok) refresh();
  };
  const remove = async (r: RuleRow) => {
    const outcome = await attempt(() => updateRule({ id: r.id, is_delete: true }), '删除成功');
    if (outcome.ok) refresh();
  };

  const scopeText = (r: RuleRow) => {
    if (r.scope === 'devices') return `${RULE_SCOPES.devices}：${r.device_labels.join('、')}`;
    if (r.scope === 'toilets') return `${RULE_SCOPES.toilets}：${r.toilet_labels.join('、')}`;
    return RULE_SCOPES.all;
  };

  const columns: TableColumnsType<RuleRow> = [
    { title: '名称', dataIndex: 'name', width: 150, ellipsis: true },
    {
      title: '公式',
      dataIndex: 'formula',
      render: (f: string) => (
        <Typography.Text code style={{ wordBreak: 'break-all' }}>
          {f}
        </Typography.Text>
      ),
    },
    {
      title: '范围',
      key: 'scope',
      width: 200,
      ellipsis: true,
      render: (_, r) => <span title={scopeText(r)}>{scopeText(r)}</span>,
    },
    { title: '持续', dataIndex: 'duration_s', width: 90, render: seconds },
    { title: '冷却', dataIndex: 'cooldown_s', width: 90, render: seconds },
    {
      title: '启用',
      dataIndex: 'enabled',
      width: 80,
      render: (on: boolean, r) => (
        <Switch
          size="small"
          checked={on}
          loading={toggling === r.id}
          aria-label={`启用 ${r.name}`}
          onChange={(v) => void toggle(r, v)}
        />
      ),
    },
    {
      title: '最近触发',
      key: 'last',
      width: 170,
      render: (_, r) => (r.last_fired_at ? `${r.last_fired_at}（共 ${r.hit_count} 次）` : '尚未触发'),
    },
    {
      title: '操作',
      key: 'actions',
      width: 220,
      fixed: mobile ? undefined : 'right',
      render: (_, r) => (
        <Flex wrap gap={4}>
          <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setEditing({ rule: r })}>
            编辑
          </Button>
          <Button size="small" type="link" icon={<HistoryOutlined />} onClick={() => setHistory(r)}>
            记录
          </Button>
          <Popconfirm
            title="删除规则"
            description={`确定删除规则「${r.name}」吗？`}
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取 消"
            onConfirm={() => remove(r)}
          >
            <Button size="small" type="link" danger icon={<DeleteOutlined />}>
              删除
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <div>
      <Flex wrap gap="small" style={{ marginBottom: 16 }}>
        <Input.Search
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onSearch={(text) => {
            setKeywords(text.trim());
            pager.reset();
          }}
          allowClear
          placeholder="名称 / 公式"
          style={{ width: mobile ? '100%' : 260 }}
        />
        <Select<'all' | 'on' | 'off'>
          aria-label="启用状态"
          value={enabled === undefined ? 'all' : enabled ? 'on' : 'off'}
          style={{ width: 120 }}
          options={[
            { value: 'all', label: '全部' },
            { value: 'on', label: '已启用' },
            { value: 'off', label: '已停用' },
          ]}
          onChange={(v) => {
            setEnabled(v === 'all' ? undefined : v === 'on');
            pager.reset();
          }}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ rule: null })}>
          新增规则
        </Button>
      </Flex>
      <Table<RuleRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无规则" /> }}
        scroll={{ x: 1100 }}
        pagination={pager.pagination(list.data?.total ?? 0)}
      />
      {editing && (
        <FormulaRuleDialog rule={editing.rule} onSaved={refresh} onClosed={() => setEditing(null)} />
      )}
      {history && <HitsDrawer rule={history} onClosed={() => setHistory(null)} />}
    </div>
  );
}
