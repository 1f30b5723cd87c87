import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useScrollMemory } from './scroll-memory.ts';

describe('scroll memory', () => {
  it('restores each route’s own scroll position when it is entered again', () => {
    let y = 0;
    Object.defineProperty(window, 'scrollY', { get: () => y, configurable: true });
    window.scrollTo = ((_x: number, top: number) => {
      y = top;
    }) as typeof window.scrollTo;
    const scrollTo = (top: number) => {
      y = top;
      window.dispatchEvent(new Event('scroll'));
    };

    const { rerender } = renderHook(({ route }) => useScrollMemory(route), {
      initialProps: { route: 'Users' },
    });
    scrollTo(640);
    rerender({ route: 'Gateways' });
    expect(y).toBe(0);
    scrollTo(120);

    rerender({ route: 'Users' });
    expect(y).toBe(640);
    rerender({ route: 'Gateways' });
    expect(y).toBe(120);
  });
});
