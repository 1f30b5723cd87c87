import { useEffect, useLayoutEffect, useRef } from 'react';

/** Scroll offsets per route name for this tab (SPEC §2: restored on entering). */
const positions = new Map<string, number>();

export const savedScroll = (key: string): number => positions.get(key) ?? 0;

// A freshly entered page may still be loading and too short to scroll to its old offset;
// keep trying for about a second unless the user scrolls first.
const RETRY_FRAMES = 60;

/** Remembers window scroll per key and restores it whenever the key changes. */
export function useScrollMemory(key: string | undefined): void {
  const current = useRef(key);

  useEffect(() => {
    const onScroll = () => {
      if (current.current !== undefined) positions.set(current.current, window.scrollY);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  useLayoutEffect(() => {
    current.current = key;
    if (key === undefined) return;
    const target = savedScroll(key);
    let frames = 0;
    let frame = 0;
    let cancelled = false;
    const stop = () => {
      cancelled = true;
      cancelAnimationFrame(frame);
    };
    const attempt = () => {
      if (cancelled) return;
      window.scrollTo(0, target);
      if (Math.abs(window.scrollY - target) > 1 && ++frames < RETRY_FRAMES) {
        frame = requestAnimationFrame(attempt);
      }
    };
    attempt();
    window.addEventListener('wheel', stop, { passive: true, once: true });
    window.addEventListener('touchstart', stop, { passive: true, once: true });
    return () => {
      stop();
      window.removeEventListener('wheel', stop);
      window.removeEventListener('touchstart', stop);
    };
  }, [key]);
}
