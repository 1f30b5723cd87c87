import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  COMPARE_OPS,
  FORMULA_OP_LABELS,
  FORMULA_VARS,
  FORMULA_VAR_LABELS,
  tryCheckFormula,
  type CompareOp,
  type FormulaVar,
} from '@se/core';
import { Button, Checkbox, Flex, Input, InputNumber, Segmented, Select, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { emptyRow, isBoolVar, rowError, rowsToText, textToRows, type BuilderRow } from './formula-builder.ts';

/** The formula text with the part the parser rejects marked, under the input. */
function Highlight({ text, pos, end }: { text: string; pos: number; end: number }) {
  const stop = Math.max(end, pos + 1);
  return (
    <pre
      data-testid="formula-error-mark"
      style={{ margin: '4px 0 0', whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 13 }}
    >
      {text.slice(0, pos)}
      <mark style={{ background: '#ffccc7', padding: 0 }}>{text.slice(pos, stop) || ' '}</mark>
      {text.slice(stop)}
    </pre>
  );
}

const JOINS = [
  { value: 'and' as const, label: '且' },
  { value: 'or' as const, label: '或' },
];
const STATES = [
  { value: 'true', label: '触发' },
  { value: 'false', label: '未触发' },
];

/** One of a builder row's drop-downs. */
function RowSelect<V extends string>(props: {
  label: string;
  value: V;
  width: number;
  options: { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  return (
    <Select<V>
      aria-label={props.label}
      value={props.value}
      style={{ width: props.width }}
      options={props.options}
      onChange={props.onChange}
    />
  );
}

function BuilderRowEditor({
  row,
  first,
  onChange,
  onRemove,
}: {
  row: BuilderRow;
  first: boolean;
  onChange: (r: BuilderRow) => void;
  onRemove: (() => void) | null;
}) {
  const bool = isBoolVar(row.variable);
  const error = rowError(row);
  return (
    <Flex gap={6} wrap align="center" data-testid="builder-row">
      {first ? (
        <span style={{ width: 64 }}>当</span>
      ) : (
        <RowSelect
          label="连接"
          value={row.join}
          width={64}
          options={JOINS}
          onChange={(join) => onChange({ ...row, join })}
        />
      )}
      <Checkbox checked={row.not} onChange={(e) => onChange({ ...row, not: e.target.checked })}>
        非
      </Checkbox>
      <RowSelect<FormulaVar>
        label="变量"
        value={row.variable}
        width={130}
        options={FORMULA_VARS.map((v) => ({ value: v, label: FORMULA_VAR_LABELS[v] }))}
        onChange={(variable) =>
          onChange(
            isBoolVar(variable)
              ? { ...row, variable, op: 'te', value: 'true' }
              : { ...row, variable, op: bool ? 'gt' : row.op, value: bool ? '' : row.value },
          )
        }
      />
      {bool ? (
        <RowSelect
          label="状态"
          value={row.value}
          width={110}
          options={STATES}
          onChange={(value) => onChange({ ...row, value })}
        />
      ) : (
        <>
          <RowSelect<CompareOp>
            label="比较"
            value={row.op}
            width={110}
            options={COMPARE_OPS.map((op) => ({ value: op, label: FORMULA_OP_LABELS[op] }))}
            onChange={(op) => onChange({ ...row, op })}
          />
          <InputNumber<string>
            aria-label="数值"
            stringMode
            value={row.value}
            status={row.value !== '' && error ? 'error' : undefined}
            placeholder="数值"
            style={{ width: 110 }}
            onChange={(v) => onChange({ ...row, value: v ?? '' })}
          />
        </>
      )}
      {onRemove && (
        <Button type="text" danger icon={<DeleteOutlined />} aria-label="删除条件" onClick={onRemove} />
      )}
    </Flex>
  );
}

/**
 * The rule formula: free text checked live by the core parser (the rejected part marked),
 * or a builder of rows that writes the same canonical text. Text the builder cannot show
 * keeps the text mode.
 */
export function FormulaEditor({
  value = '',
  onChange,
  messageInForm = false,
}: {
  value?: string;
  onChange?: (v: string) => void;
  /** The surrounding Form.Item shows the parser's message: only the highlight is drawn here. */
  messageInForm?: boolean;
}) {
  const initialRows = useMemo(() => (value ? textToRows(value) : [emptyRow()]), []); // eslint-disable-line react-hooks/exhaustive-deps
  const [mode, setMode] = useState<'text' | 'builder'>(initialRows ? 'builder' : 'text');
  const [rows, setRows] = useState<BuilderRow[]>(initialRows ?? [emptyRow()]);
  const check = value.trim() ? tryCheckFormula(value) : null;
  const fromText = value.trim() ? textToRows(value) : [emptyRow()];

  const setRowsAndText = (next: BuilderRow[]) => {
    setRows(next);
    const text = rowsToText(next);
    onChange?.(text ?? '');
  };

  return (
    <Flex vertical gap={8}>
      <Segmented<'text' | 'builder'>
        value={mode}
        options={[
          { value: 'builder', label: '可视化编辑', disabled: !fromText },
          { value: 'text', label: '文本编辑' },
        ]}
        onChange={(m) => {
          if (m === 'builder' && fromText) setRows(fromText);
          setMode(m);
        }}
      />
      {mode === 'text' ? (
        <Input.TextArea
          aria-label="公式"
          value={value}
          autoSize={{ minRows: 2, maxRows: 4 }}
          maxLength={500}
          placeholder="例如：nh3 gt 1.5 and not alarm"
          status={check && !check.ok ? 'error' : undefined}
          onChange={(e) => onChange?.(e.target.value)}
          style={{ fontFamily: 'monospace' }}
        />
      ) : (
        <Flex vertical gap={6}>
          {rows.map((row, i) => (
            <BuilderRowEditor
              key={i}
              row={row}
              first={i === 0}
              onChange={(r) => setRowsAndText(rows.map((x, j) => (j === i ? r : x)))}
              onRemove={rows.length > 1 ? () => setRowsAndText(rows.filter((_, j) => j !== i)) : null}
            />
          ))}
          <Flex gap={8}>
            {JOINS.map((j) => (
              <Button
                key={j.value}
                size="small"
                icon={<PlusOutlined />}
                onClick={() => setRowsAndText([...rows, emptyRow(j.value)])}
              >
                {j.label} 条件
              </Button>
            ))}
          </Flex>
          <Typography.Text type="secondary">
            公式：<Typography.Text code>{value || '（请填写完整的条件）'}</Typography.Text>
          </Typography.Text>
        </Flex>
      )}
      {check && !check.ok && (
        <div role="alert">
          {!messageInForm && <Typography.Text type="danger">{check.message}</Typography.Text>}
          {mode === 'text' && <Highlight text={value} pos={check.pos} end={check.end} />}
        </div>
      )}
      {mode === 'text' && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          变量：co2、pm25、voc、nh3、h2s（数值），alarm、smk_alarm（报警，真/假）；运算：plus、minus、multiply、divide；
          比较：gt、gte、lt、lte、te；逻辑：and、or、not；可用括号。
        </Typography.Text>
      )}
    </Flex>
  );
}
