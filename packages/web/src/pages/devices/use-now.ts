import { useEffect, useState } from 'react';

/**
 * The current time, renewed every `intervalMs` so "x 分钟前" texts age while a list is open.
 * The timer goes with the component (SPEC §2), and pauses while a kept-alive page is hidden.
 */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
