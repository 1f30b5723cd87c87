import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { defineScreen } from '../navigation/screen.ts';
import type { AppRoute } from '../routes.tsx';
import { KeepAliveOutlet } from './KeepAliveOutlet.tsx';

function Counter() {
  const [count, setCount] = useState(0);
  return <button onClick={() => setCount(count + 1)}>count {count}</button>;
}

const counter = () => Promise.resolve({ default: Counter });
const make = (name: string, keepAlive: boolean): AppRoute => ({
  path: `/${name.toLowerCase()}`,
  name,
  title: name,
  access: 'auth',
  keepAlive,
  area: 'system',
  permission: 0,
  screen: defineScreen(name, counter),
});

const kept = make('Kept', true);
const plain = make('Plain', false);

// <Activity mode="hidden"> hides its DOM with display: none (jsdom has no real visibility).
const hidden = (el: HTMLElement | null): boolean =>
  !!el && (el.style.display === 'none' || hidden(el.parentElement));

async function show(rerender: (ui: React.ReactNode) => void, route: AppRoute) {
  await act(async () => rerender(<KeepAliveOutlet current={route} />));
}

describe('keep-alive outlet', () => {
  it('keeps a kept-alive page’s state while another route is shown', async () => {
    const { rerender } = render(<KeepAliveOutlet current={kept} />);
    fireEvent.click(await screen.findByText('count 0'));
    fireEvent.click(screen.getByText('count 1'));

    await show(rerender, plain);
    expect(hidden(await screen.findByText('count 0'))).toBe(false);
    expect(hidden(screen.getByText('count 2'))).toBe(true);

    await show(rerender, kept);
    expect(hidden(await screen.findByText('count 2'))).toBe(false);
  });

  it('starts a page that is not kept alive afresh on every visit', async () => {
    const { rerender } = render(<KeepAliveOutlet current={plain} />);
    fireEvent.click(await screen.findByText('count 0'));
    expect(screen.getByText('count 1')).toBeTruthy();

    await show(rerender, kept);
    await show(rerender, plain);
    const buttons = await screen.findAllByText(/count/);
    expect(buttons.filter((b) => b.textContent === 'count 1')).toHaveLength(0);
  });
});
