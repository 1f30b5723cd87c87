import { HistoryOutlined } from '@ant-design/icons';
import {
  FORMULA_VAR_LABELS,
  RULE_SCOPES,
  type FormulaVar,
  type RuleFiredPush,
  type RuleHitRow,
  type RuleRow,
} from '@se/core';
import { useQueryClient } from '@tanstack/react-query';
import { Select, Switch, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { listRuleHits, listRules, updateRule } from '../../api/rules.ts';
import { attempt } from '../../components/feedback.ts';
import { EntityList } from '../../components/EntityList.tsx';
import {
  RowAction,
  ListTable,
  text,
  useDialog,
  useListQuery,
  type FilterField,
  NO_FILTERS,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { MountedDrawer } from '../../components/MountedDrawer.tsx';
import { useLiveChannel } from '../../live/socket.ts';
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

const HIT_COLUMNS: ListColumn<RuleHitRow>[] = [
  { title: '触发时间', dataIndex: 'fired_at', width: 170, card: false },
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

/** 触发记录 of one rule: when, which device, with what readings, and whether it was handed on. */
function HitsDrawer({ rule, onClosed }: { rule: RuleRow; onClosed: () => void }) {
  const hits = useListQuery({
    key: ['rules', 'hits', rule.id],
    filters: NO_FILTERS,
    local: true,
    load: (_, paging) => listRuleHits({ rule_id: rule.id, ...paging }),
  });
  return (
    <MountedDrawer title={`触发记录 - ${rule.name}`} width={900} onClosed={onClosed}>
      <Typography.Paragraph>
        公式：<Typography.Text code>{rule.formula}</Typography.Text>
      </Typography.Paragraph>
      <ListTable
        list={hits}
        columns={HIT_COLUMNS}
        rowKey="id"
        empty="暂无触发记录"
        cardTitle={(h) => h.fired_at}
      />
    </MountedDrawer>
  );
}

type Enabled = 'all' | 'on' | 'off';

/** 全部 / 已启用 / 已停用, applied when chosen. */
const enabledFilter: FilterField<Enabled> = {
  initial: 'all',
  instant: true,
  encode: (v) => (v === 'all' ? undefined : v),
  decode: (s) => (s === 'on' || s === 'off' ? s : 'all'),
  render: ({ value, onChange }) => (
    <Select<Enabled>
      aria-label="启用状态"
      value={value}
      style={{ width: 120 }}
      options={[
        { value: 'all', label: '全部' },
        { value: 'on', label: '已启用' },
        { value: 'off', label: '已停用' },
      ]}
      onChange={onChange}
    />
  ),
};

const FILTERS: FilterFields<{ keywords: string; enabled: Enabled }> = {
  keywords: text({ placeholder: '名称 / 公式', width: 260, search: true }),
  enabled: enabledFilter,
};

const scopeText = (r: RuleRow) => {
  if (r.scope === 'devices') return `${RULE_SCOPES.devices}：${r.device_labels.join('、')}`;
  if (r.scope === 'toilets') return `${RULE_SCOPES.toilets}：${r.toilet_labels.join('、')}`;
  return RULE_SCOPES.all;
};

const RULES_CHANNEL = { channel: 'rules' } as const;

const isRuleFired = (d: unknown): d is RuleFiredPush =>
  typeof d === 'object' && d !== null && typeof (d as RuleFiredPush).id === 'number';

/**
 * /notify-formula: the caller's formula rules. 最近触发 follows the /ws 'rules' channel: a
 * rule that fires has its row (and its open 触发记录) read again, without a reload.
 */
export default function FormulaTab() {
  const queryClient = useQueryClient();
  const list = useListQuery({
    key: ['rules', 'list'],
    filters: FILTERS,
    load: (f, paging) =>
      listRules({
        keywords: f.keywords.trim() || undefined,
        enabled: f.enabled === 'all' ? undefined : f.enabled === 'on',
        ...paging,
      }),
  });
  const history = useDialog<RuleRow>();
  useLiveChannel(RULES_CHANNEL, (data) => {
    if (!isRuleFired(data)) return;
    void queryClient.invalidateQueries({ queryKey: ['rules', 'list'] });
    void queryClient.invalidateQueries({ queryKey: ['rules', 'hits', data.id] });
  });
  const [toggling, setToggling] = useState<number | null>(null);

  const toggle = async (r: RuleRow, on: boolean) => {
    setToggling(r.id);
    const outcome = await attempt(() => updateRule({ id: r.id, enabled: on }), on ? '已启用' : '已停用');
    setToggling(null);
    if (outcome.ok) list.refresh();
  };

  // At 1366 px (a 1,050 px card) the table fits without scrolling: 冷却 folds into the row.
  const columns: ListColumn<RuleRow>[] = [
    { title: '名称', dataIndex: 'name', width: 130, ellipsis: true, card: false },
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
      width: 130,
      ellipsis: true,
      render: (_, r) => <span title={scopeText(r)}>{scopeText(r)}</span>,
    },
    {
      title: '持续',
      dataIndex: 'duration_s',
      width: 100,
      render: (s: number, r) => (r.min_count > 1 ? `${seconds(r.window_s)}内 ${r.min_count} 次` : seconds(s)),
    },
    { title: '冷却', dataIndex: 'cooldown_s', width: 90, render: seconds, from: 'xl' },
    {
      title: '启用',
      dataIndex: 'enabled',
      width: 64,
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
      ellipsis: { showTitle: false },
      render: (_, r) =>
        r.last_fired_at ? (
          <Tooltip title={`${r.last_fired_at}（共 ${r.hit_count} 次）`}>
            <span>
              {r.last_fired_at}
              <br />
              <Typography.Text type="secondary">共 {r.hit_count} 次</Typography.Text>
            </span>
          </Tooltip>
        ) : (
          '尚未触发'
        ),
    },
  ];

  return (
    <div>
      <EntityList
        list={list}
        columns={columns}
        add="新增规则"
        empty="暂无规则"
        actionsWidth={210}
        remove={{ title: '删除规则', question: (r) => `确定删除规则「${r.name}」吗？`, update: updateRule }}
        rowButtons={(r) => (
          <RowAction icon={<HistoryOutlined />} onClick={() => history.open(r)}>
            记录
          </RowAction>
        )}
        dialog={(rule, props) => <FormulaRuleDialog rule={rule} {...props} />}
      />
      {history.target && <HitsDrawer rule={history.target} onClosed={history.close} />}
    </div>
  );
}
