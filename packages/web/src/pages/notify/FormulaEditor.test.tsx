import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { UiProvider } from '../../App.tsx';
import { FormulaEditor } from './FormulaEditor.tsx';

function Harness({ start = '' }: { start?: string }) {
  const [text, setText] = useState(start);
  return (
    <UiProvider>
      <FormulaEditor value={text} onChange={setText} />
      <output data-testid="text">{text}</output>
    </UiProvider>
  );
}

const out = () => screen.getByTestId('text').textContent;

describe('FormulaEditor', () => {
  it('opens a builder-shaped formula in the builder and writes canonical text from its rows', () => {
    render(<Harness start="nh3 gt 1.5 and not alarm" />);
    expect(screen.getAllByTestId('builder-row')).toHaveLength(2);
    fireEvent.change(screen.getAllByRole('spinbutton', { name: '数值' })[0]!, { target: { value: '2.5' } });
    expect(out()).toBe('nh3 gt 2.5 and not alarm');
    fireEvent.click(screen.getByRole('button', { name: /或 条件/ }));
    // A new row has no number yet: no text until it is complete.
    expect(out()).toBe('');
    fireEvent.change(screen.getAllByRole('spinbutton', { name: '数值' })[1]!, { target: { value: '0.05' } });
    expect(out()).toBe('nh3 gt 2.5 and not alarm or nh3 gt 0.05');
    fireEvent.click(screen.getAllByRole('checkbox', { name: '非' })[2]!);
    expect(out()).toBe('nh3 gt 2.5 and not alarm or not (nh3 gt 0.05)');
  }, 30_000); // antd renders a dozen selects slowly in jsdom

  it('checks typed text live and marks where it is wrong', () => {
    render(<Harness start="nh3 plus h2s gt 1" />);
    // Arithmetic cannot be shown as rows: the text editor opens.
    const box = screen.getByRole('textbox', { name: '公式' });
    fireEvent.change(box, { target: { value: 'nh3 gt 1.5 and nh4 lt 2' } });
    expect(screen.getByRole('alert').textContent).toContain('第 16 个字符：未知变量 nh4');
    expect(screen.getByTestId('formula-error-mark').querySelector('mark')!.textContent).toBe('nh4');
    fireEvent.change(box, { target: { value: 'nh3 gt 1.5 and h2s lt 2' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
