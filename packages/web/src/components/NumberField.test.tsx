import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NumberField, type NumberFieldProps } from './NumberField.tsx';
import {
  createRepeater,
  normalizeNumber,
  parseNumberText,
  stepNumber,
  type NumberRules,
} from './number-field.ts';

describe('numeric input rules (SPEC §5)', () => {
  it('reads empty text as undefined and ignores text that is not a number', () => {
    expect(parseNumberText('')).toBeUndefined();
    expect(parseNumberText('   ')).toBeUndefined();
    expect(parseNumberText('12.5')).toBe(12.5);
    expect(parseNumberText(' -3 ')).toBe(-3);
    expect(parseNumberText('.5')).toBe(0.5);
    for (const text of ['abc', '12a', '1.2.3', '-', '0x10', 'Infinity', '1,5']) {
      expect(parseNumberText(text), text).toBeNull();
    }
  });

  it('clamps to min and max', () => {
    const rules = { min: 0, max: 100 };
    expect(normalizeNumber(150, rules)).toBe(100);
    expect(normalizeNumber(-5, rules)).toBe(0);
    expect(normalizeNumber(42, rules)).toBe(42);
    expect(normalizeNumber(undefined, rules)).toBeUndefined();
  });

  it('rounds to the precision, half away from zero, then clamps', () => {
    expect(normalizeNumber(1.005, { precision: 2 })).toBe(1.01);
    expect(normalizeNumber(0.8549, { precision: 2 })).toBe(0.85);
    expect(normalizeNumber(-2.5, { precision: 0 })).toBe(-3);
    expect(normalizeNumber(9.996, { precision: 2, max: 9.99 })).toBe(9.99);
  });

  it('rounds to the nearest step multiple when steps are strict', () => {
    expect(normalizeNumber(7, { step: 5, stepStrictly: true })).toBe(5);
    expect(normalizeNumber(8, { step: 5, stepStrictly: true })).toBe(10);
    expect(normalizeNumber(0.35, { step: 0.1, stepStrictly: true })).toBe(0.4);
    expect(normalizeNumber(0.7, { step: 0.25, stepStrictly: true })).toBe(0.75);
    // Without stepStrictly any value stands.
    expect(normalizeNumber(7, { step: 5 })).toBe(7);
  });

  it('steps by 1 by default, by the given step otherwise, without float noise, within bounds', () => {
    expect(stepNumber(3, 1, {})).toBe(4);
    expect(stepNumber(3, -1, {})).toBe(2);
    expect(stepNumber(0.1, 1, { step: 0.2 })).toBe(0.3);
    expect(stepNumber(1.2, -1, { step: 0.1 })).toBe(1.1);
    expect(stepNumber(undefined, 1, { step: 5 })).toBe(5);
    expect(stepNumber(99, 1, { step: 5, max: 100 })).toBe(100);
    expect(stepNumber(2, -1, { step: 5, min: 0 })).toBe(0);
    expect(stepNumber(1, 1, { step: 0.5, precision: 2 })).toBe(1.5);
  });

  it('repeats a held button every 100 ms and counts a short press as one click', () => {
    vi.useFakeTimers();
    const action = vi.fn();
    const r = createRepeater(action);
    r.press();
    vi.advanceTimersByTime(50);
    r.release();
    expect(action).toHaveBeenCalledTimes(1);

    action.mockClear();
    r.press();
    vi.advanceTimersByTime(350);
    r.release();
    expect(action).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(500);
    expect(action).toHaveBeenCalledTimes(3);
    vi.useRealTimers();
  });
});

function Harness({
  onValue,
  initial,
  ...rules
}: NumberRules & { onValue: (v: number | undefined) => void; initial?: number }) {
  const [value, setValue] = useState<number | undefined>(initial);
  const props: NumberFieldProps = {
    ...rules,
    value,
    'aria-label': '数值',
    onChange: (v) => {
      setValue(v);
      onValue(v);
    },
  };
  return <NumberField {...props} />;
}

const box = () => screen.getByRole('spinbutton', { name: '数值' }) as HTMLInputElement;

describe('NumberField', () => {
  afterEach(() => vi.useRealTimers());

  it('clamps on blur and shows the clamped value', () => {
    const onValue = vi.fn();
    render(<Harness onValue={onValue} min={0} max={100} initial={5} />);
    fireEvent.change(box(), { target: { value: '250' } });
    expect(onValue).toHaveBeenLastCalledWith(250);
    fireEvent.blur(box());
    expect(onValue).toHaveBeenLastCalledWith(100);
    expect(box().value).toBe('100');
  });

  it('gives undefined for an emptied box', () => {
    const onValue = vi.fn();
    render(<Harness onValue={onValue} initial={7} />);
    fireEvent.change(box(), { target: { value: '' } });
    fireEvent.blur(box());
    expect(onValue).toHaveBeenLastCalledWith(undefined);
    expect(box().value).toBe('');
  });

  it('ignores non-numeric text: the value stays and comes back on blur', () => {
    const onValue = vi.fn();
    render(<Harness onValue={onValue} initial={12} />);
    fireEvent.change(box(), { target: { value: '12abc' } });
    expect(onValue).not.toHaveBeenCalled();
    fireEvent.blur(box());
    expect(onValue).not.toHaveBeenCalled();
    expect(box().value).toBe('12');
  });

  it('shows and commits the precision', () => {
    const onValue = vi.fn();
    render(<Harness onValue={onValue} precision={2} initial={1} />);
    expect(box().value).toBe('1.00');
    fireEvent.change(box(), { target: { value: '0.856' } });
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(onValue).toHaveBeenLastCalledWith(0.86);
    expect(box().value).toBe('0.86');
  });

  it('steps with the buttons and the arrow keys, and stops at the bounds', () => {
    vi.useFakeTimers();
    const onValue = vi.fn();
    render(<Harness onValue={onValue} step={10} max={25} initial={0} />);
    const plus = screen.getByRole('button', { name: '增加' });
    act(() => {
      fireEvent.pointerDown(plus, { button: 0 });
      fireEvent.pointerUp(window);
    });
    expect(box().value).toBe('10');
    fireEvent.keyDown(box(), { key: 'ArrowUp' });
    fireEvent.keyDown(box(), { key: 'ArrowUp' });
    expect(box().value).toBe('25');
    expect((plus as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(box(), { key: 'ArrowDown' });
    expect(onValue).toHaveBeenLastCalledWith(15);
  });
});
