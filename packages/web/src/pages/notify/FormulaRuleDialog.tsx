import { ExperimentOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  FORMULA_VAR_LABELS,
  RULE_LIMITS,
  RULE_SCOPES,
  addRuleBody,
  type AddRuleBody,
  formatDateTime,
  tryCheckFormula,
  type FormulaTestResult,
  type FormulaVar,
  type NotifyObject,
  type RuleRow,
  type RuleScope,
} from '@se/core';
import { Alert, Button, Descriptions, Flex, Form, Radio, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import {
  addRule,
  listObjectsForRules,
  listRuleDevices,
  listTemplatesForRules,
  testFormula,
  updateRule,
  type RuleFields,
} from '../../api/rules.ts';
import { listToilets } from '../../api/toilets.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { attempt } from '../../components/feedback.ts';
import type { FormField } from '../../components/form-fields.tsx';
import { FormulaEditor } from './FormulaEditor.tsx';
import { RemoteSelect } from './FormulaPickers.tsx';
import { ObjectDialog } from './ObjectsPanel.tsx';

/** The dialog's values are what the add route reads (the edit route takes the same plus the id). */
type RuleForm = AddRuleBody;

const deviceOption = (d: { id: number; ser_num: string; desc: string }) => ({
  value: d.id,
  label: d.desc ? `${d.ser_num}（${d.desc}）` : d.ser_num,
});

/** 用设备最新数据测试: the formula in the dialog against one device's latest readings. */
function TestPanel() {
  const formula = (Form.useWatch('formula') as string | undefined) ?? '';
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<FormulaTestResult | null>(null);
  const valid = formula.trim() !== '' && tryCheckFormula(formula).ok;
  const run = async () => {
    if (deviceId === null) return;
    setBusy(true);
    const r = await attempt(() => testFormula(formula, deviceId));
    setBusy(false);
    setResult(r.ok ? r.data : null);
  };
  return (
    <Flex vertical gap={8}>
      <Flex gap={8} wrap>
        <div style={{ flex: 1, minWidth: 200 }}>
          <RemoteSelect
            queryKey="test-device"
            ariaLabel="测试设备"
            load={(keywords) => listRuleDevices({ keywords, page_size: 20 })}
            toOption={deviceOption}
            value={deviceId}
            onChange={(v: number | null) => {
              setDeviceId(v);
              setResult(null);
            }}
            placeholder="选择设备（序列号 / 描述）"
          />
        </div>
        <Button
          icon={<ExperimentOutlined />}
          loading={busy}
          disabled={!valid || deviceId === null}
          onClick={() => void run()}
        >
          用设备最新数据测试
        </Button>
      </Flex>
      {result && (
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label="结果">
            {result.result === null ? (
              <Tag>无法判断：缺少 {result.missing.join('、')}</Tag>
            ) : result.result ? (
              <Tag color="red">成立（会触发）</Tag>
            ) : (
              <Tag color="green">不成立</Tag>
            )}
          </Descriptions.Item>
          <Descriptions.Item label="数据时间">
            {result.time ? formatDateTime(result.time) : '暂无上报'}
          </Descriptions.Item>
          <Descriptions.Item label="使用的数据">
            {Object.keys(result.values).length === 0
              ? '暂无数据'
              : Object.entries(result.values)
                  .map(
                    ([k, v]) =>
                      `${FORMULA_VAR_LABELS[k as FormulaVar] ?? k}：${typeof v === 'boolean' ? (v ? '触发' : '未触发') : v}`,
                  )
                  .join('；')}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Flex>
  );
}

const objectOption = (o: NotifyObject) => ({ value: o.id, label: `${o.name}（${o.target_label}）` });

/**
 * 提醒对象: the owner's recipients, and 新增提醒对象 right here (the recipients' own dialog),
 * which selects the new one, so a missing recipient is no dead end.
 */
function ObjectPicker({
  value,
  onChange,
  known,
}: {
  value?: number[];
  onChange?: (v: number[]) => void;
  known: { value: number; label: string }[];
}) {
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<{ value: number; label: string }[]>([]);
  const created = (o: NotifyObject) => {
    setAdded((a) => [...a, objectOption(o)]);
    onChange?.([...(value ?? []), o.id]);
    void queryClient.invalidateQueries({ queryKey: ['rules', 'picker', 'objects'] });
    void queryClient.invalidateQueries({ queryKey: ['notify', 'objects'] });
  };
  return (
    <Flex gap={8}>
      <div style={{ flex: 1, minWidth: 0 }}>
        <RemoteSelect
          queryKey="objects"
          ariaLabel="提醒对象"
          multiple
          load={listObjectsForRules}
          toOption={objectOption}
          known={[...known, ...added]}
          value={value}
          onChange={(v: number[]) => onChange?.(v)}
          placeholder="选择提醒对象"
          empty="暂无提醒对象，点右侧「新增提醒对象」"
        />
      </div>
      <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
        新增提醒对象
      </Button>
      {adding && <ObjectDialog object={null} onSaved={created} onClosed={() => setAdding(false)} />}
    </Flex>
  );
}

const label = (ids: number[], labels: string[]) =>
  ids.map((id, i) => ({ value: id, label: labels[i] ?? `#${id}` }));

/** The devices or toilets a rule of that scope watches: at least one, shown for that scope only. */
const scoped = (
  scope: 'devices' | 'toilets',
  label: string,
  message: string,
  render: () => ReactNode,
): FormField<RuleForm> => ({
  name: scope === 'devices' ? 'device_ids' : 'toilet_ids',
  label,
  rules: [{ required: true, type: 'array', min: 1, message }],
  hidden: (v) => v.scope !== scope,
  render,
});

/** The fields of the rule dialog; `rule` labels the devices, toilets … it already has. */
function ruleFields(rule: RuleRow | null): FormField<RuleForm>[] {
  const seconds = { kind: 'number', span: 8, props: { min: 0, precision: 0 } } as const;
  return [
    { name: 'name', label: '名称', required: true, maxLength: 50, placeholder: '例如：氨气持续超标' },
    {
      name: 'formula',
      label: '公式',
      required: true,
      rules: [
        {
          validator: async (_r, v: string) => {
            if (!v?.trim()) throw new Error('请填写完整的公式');
            const c = tryCheckFormula(v);
            if (!c.ok) throw new Error(c.message);
          },
        },
      ],
      render: () => <FormulaEditor messageInForm />,
    },
    { label: '用设备最新数据测试', render: () => <TestPanel /> },
    {
      name: 'scope',
      label: '范围',
      rules: [],
      render: () => (
        <Radio.Group
          options={(Object.keys(RULE_SCOPES) as RuleScope[]).map((s) => ({
            value: s,
            label: RULE_SCOPES[s],
          }))}
        />
      ),
    },
    scoped('devices', '设备', '请选择至少一台设备', () => (
      <RemoteSelect
        queryKey="devices"
        ariaLabel="设备"
        multiple
        load={(keywords) => listRuleDevices({ keywords, page_size: 20 })}
        toOption={deviceOption}
        known={rule ? label(rule.device_ids, rule.device_labels) : []}
        placeholder="搜索网关、传感器、除臭机、评价器"
      />
    )),
    scoped('toilets', '厕所', '请选择至少一个厕所', () => (
      <RemoteSelect
        queryKey="toilets"
        ariaLabel="厕所"
        multiple
        load={(keywords) => listToilets({ keywords, page_size: 20 })}
        toOption={(t) => ({ value: t.id, label: t.name })}
        known={rule ? label(rule.toilet_ids, rule.toilet_labels) : []}
        placeholder="搜索厕所名称 / 地址"
      />
    )),
    {
      ...seconds,
      name: 'min_count',
      label: '触发次数',
      item: {
        tooltip:
          '1 表示按持续时间判断；大于 1 时，公式在统计时间内成立这么多次才触发（例如 30 分钟内 3 条 2 星及以下的评价）',
      },
      props: { min: 1, max: RULE_LIMITS.countMax, precision: 0 },
    },
    {
      ...seconds,
      name: 'duration_s',
      label: '持续时间（秒）',
      item: { tooltip: '公式持续成立这么久才触发；0 表示立即触发' },
      props: { ...seconds.props, max: RULE_LIMITS.durationMax },
      hidden: (v) => (v.min_count ?? 1) > 1,
    },
    {
      ...seconds,
      name: 'window_s',
      label: '统计时间（秒）',
      item: { tooltip: '在这段时间内累计成立的次数达到触发次数才触发' },
      props: { min: 1, max: RULE_LIMITS.windowMax, precision: 0 },
      hidden: (v) => (v.min_count ?? 1) <= 1,
    },
    {
      ...seconds,
      name: 'cooldown_s',
      label: '冷却时间（秒）',
      item: { tooltip: '同一设备触发后，这段时间内不再提醒' },
      props: { ...seconds.props, max: RULE_LIMITS.cooldownMax },
    },
    { name: 'enabled', label: '启用', kind: 'switch', span: 8, rules: [] },
    {
      name: 'template_id',
      label: '消息模板',
      rules: [],
      extra: '不选则使用默认模板',
      render: () => (
        <RemoteSelect
          queryKey="templates"
          ariaLabel="消息模板"
          load={listTemplatesForRules}
          toOption={(t) => ({ value: t.id, label: t.name })}
          known={
            rule?.template_id
              ? [{ value: rule.template_id, label: rule.template_name || `#${rule.template_id}` }]
              : []
          }
          placeholder="选择模板"
        />
      ),
    },
    {
      name: 'object_ids',
      label: '提醒对象',
      rules: [],
      extra: '规则触发时，除自己的站内消息外还会通知这些对象；没有合适的对象可以直接新增',
      render: () => <ObjectPicker known={rule ? label(rule.object_ids, rule.object_names) : []} />,
    },
  ];
}

/** 新增 / 编辑 one formula rule. */
export function FormulaRuleDialog({
  rule,
  onSaved,
  onClosed,
}: DialogProps<{
  rule: RuleRow | null;
}>) {
  const submit = (v: RuleForm) => {
    const fields: RuleFields = {
      name: v.name.trim(),
      formula: v.formula,
      scope: v.scope,
      device_ids: v.device_ids ?? [],
      toilet_ids: v.toilet_ids ?? [],
      duration_s: v.duration_s ?? 0,
      cooldown_s: v.cooldown_s ?? 0,
      min_count: v.min_count ?? 1,
      window_s: (v.min_count ?? 1) > 1 ? (v.window_s ?? 0) : 0,
      template_id: v.template_id ?? 0,
      object_ids: v.object_ids ?? [],
      enabled: v.enabled,
    };
    return rule ? updateRule({ id: rule.id, ...fields }) : addRule(fields);
  };

  return (
    <FormModal
      title={rule ? `编辑规则 ${rule.name}` : '新增规则'}
      width={760}
      name="rule"
      fields={ruleFields(rule)}
      schema={addRuleBody}
      initialValues={{
        name: rule?.name ?? '',
        formula: rule?.formula ?? '',
        scope: rule?.scope ?? 'all',
        device_ids: rule?.device_ids ?? [],
        toilet_ids: rule?.toilet_ids ?? [],
        duration_s: rule?.duration_s ?? 0,
        cooldown_s: rule?.cooldown_s ?? RULE_LIMITS.defaultCooldown,
        min_count: rule?.min_count ?? 1,
        window_s: rule?.window_s ?? 0,
        template_id: rule?.template_id ?? null,
        object_ids: rule?.object_ids ?? [],
        enabled: rule?.enabled ?? true,
      }}
      submit={submit}
      success={rule ? '修改成功' : '新增成功'}
      onSaved={onSaved}
      onClosed={onClosed}
      footer={
        rule &&
        rule.hit_count > 0 && (
          <Alert
            type="info"
            showIcon
            title={
              <Typography.Text>
                已触发 {rule.hit_count} 次，最近一次 {rule.last_fired_at}
                。修改公式或重新启用后，持续时间重新计算。
              </Typography.Text>
            }
          />
        )
      }
    />
  );
}
