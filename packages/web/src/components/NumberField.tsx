import { MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import {
  canStep,
  createRepeater,
  formatNumber,
  normalizeNumber,
  parseNumberText,
  stepNumber,
  type NumberRules,
} from './number-field.ts';

export interface NumberFieldProps extends NumberRules {
  value?: number;
  onChange?: (value: number | undefined) => void;
  id?: string;
  disabled?: boolean;
  placeholder?: string;
  /** A unit shown inside the box (秒, ms…). */
  suffix?: ReactNode;
  /** The +/− buttons; on by default. */
  controls?: boolean;
  status?: 'error' | 'warning';
  style?: CSSProperties;
  'aria-label'?: string;
}

type Direction = 1 | -1;

/**
 * A number box with the SPEC §5 rules (see number-field.ts). Typed text is kept as typed
 * while it is being edited; every numeric text reaches the form at once so a submit
 * sees it, and leaving the box (or Enter) commits it clamped and rounded. Text that is
 * not a number is ignored: the value stays and the box shows it again on leaving.
 */
export function NumberField({
  value,
  onChange,
  id,
  disabled,
  placeholder,
  suffix,
  controls = true,
  status,
  style,
  'aria-label': ariaLabel,
  ...rules
}: NumberFieldProps) {
  // null: show the value; a string: the user is editing.
  const [text, setText] = useState<string | null>(null);

  const commit = () => {
    if (text === null) return;
    setText(null);
    const parsed = parseNumberText(text);
    if (parsed === null) return;
    const next = normalizeNumber(parsed, rules);
    if (next !== value) onChange?.(next);
  };

  const step = (direction: Direction) => {
    // A pending edit counts as the base, as if it had been committed first.
    const typed = text === null ? value : parseNumberText(text);
    const base = normalizeNumber(typed === null ? value : typed, rules);
    setText(null);
    if (!canStep(base, direction, rules)) {
      if (base !== value) onChange?.(base);
      return;
    }
    onChange?.(stepNumber(base, direction, rules));
  };

  // The repeat timer outlives renders; it must call the latest step, not the first one.
  const stepRef = useRef(step);
  useEffect(() => {
    stepRef.current = step;
  });

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') commit();
    else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      step(e.key === 'ArrowUp' ? 1 : -1);
    }
  };

  const input = (
    <Input
      id={id}
      value={text ?? formatNumber(value, rules)}
      placeholder={placeholder}
      disabled={disabled}
      suffix={suffix}
      status={status}
      inputMode={rules.precision === 0 || (rules.step ?? 1) % 1 === 0 ? 'numeric' : 'decimal'}
      role="spinbutton"
      aria-label={ariaLabel}
      aria-valuenow={value}
      aria-valuemin={rules.min}
      aria-valuemax={rules.max}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        const parsed = parseNumberText(next);
        if (parsed !== null && parsed !== value) onChange?.(parsed);
      }}
      onBlur={commit}
      onKeyDown={onKeyDown}
    />
  );

  if (!controls) return <div style={style}>{input}</div>;
  return (
    <Space.Compact block style={style}>
      <StepButton
        direction={-1}
        disabled={disabled || (text === null && !canStep(value, -1, rules))}
        onStep={(d) => stepRef.current(d)}
      />
      {input}
      <StepButton
        direction={1}
        disabled={disabled || (text === null && !canStep(value, 1, rules))}
        onStep={(d) => stepRef.current(d)}
      />
    </Space.Compact>
  );
}

function StepButton({
  direction,
  disabled,
  onStep,
}: {
  direction: Direction;
  disabled: boolean | undefined;
  onStep: (direction: Direction) => void;
}) {
  const onStepRef = useRef(onStep);
  const [repeater] = useState(() => createRepeater(() => onStepRef.current(direction)));
  useEffect(() => {
    onStepRef.current = onStep;
  });
  useEffect(() => {
    if (disabled) repeater.cancel();
  }, [disabled, repeater]);
  useEffect(() => repeater.cancel, [repeater]);

  return (
    <Button
      icon={direction === 1 ? <PlusOutlined /> : <MinusOutlined />}
      aria-label={direction === 1 ? '增加' : '减少'}
      disabled={disabled}
      // Keep the caret in the box: a button press must not blur (and commit) mid-edit first.
      onMouseDown={(e) => e.preventDefault()}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        repeater.press();
        const up = () => {
          repeater.release();
          window.removeEventListener('pointerup', up);
          window.removeEventListener('pointercancel', up);
        };
        window.addEventListener('pointerup', up);
        window.addEventListener('pointercancel', up);
      }}
      // Keyboard activation (Enter/Space) has no pointer: one step per press.
      onClick={(e) => {
        if (e.detail === 0) onStep(direction);
      }}
    />
  );
}
