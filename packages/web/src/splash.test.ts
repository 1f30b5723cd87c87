import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeSplash, SPLASH_ID } from './splash.ts';
import { installZoomGuard } from './zoom-guard.ts';

describe('splash', () => {
  afterEach(() => vi.useRealTimers());

  it('is removed 200 ms after its creation, not before', () => {
    vi.useFakeTimers();
    document.body.innerHTML = `<div id="${SPLASH_ID}">正在加载，请稍候</div>`;
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
      { responseEnd: 50 } as unknown as PerformanceEntry,
    ]);
    removeSplash(document, 100);
    vi.advanceTimersByTime(149);
    expect(document.getElementById(SPLASH_ID)).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(document.getElementById(SPLASH_ID)).toBeNull();
  });

  it('goes at once when the app mounts later than that', () => {
    vi.useFakeTimers();
    document.body.innerHTML = `<div id="${SPLASH_ID}"></div>`;
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
      { responseEnd: 50 } as unknown as PerformanceEntry,
    ]);
    removeSplash(document, 900);
    vi.advanceTimersByTime(0);
    expect(document.getElementById(SPLASH_ID)).toBeNull();
  });
});

describe('zoom guard', () => {
  const fire = (type: string, touches = 0) => {
    const event = new Event(type, { cancelable: true });
    Object.defineProperty(event, 'touches', { value: { length: touches } });
    document.dispatchEvent(event);
    return event.defaultPrevented;
  };

  it('cancels pinch and gesture zoom but leaves one-finger scrolling alone', () => {
    const uninstall = installZoomGuard(document);
    try {
      expect(fire('gesturestart')).toBe(true);
      expect(fire('gesturechange')).toBe(true);
      expect(fire('touchmove', 2)).toBe(true);
      expect(fire('touchmove', 1)).toBe(false);
    } finally {
      uninstall();
    }
  });
});
