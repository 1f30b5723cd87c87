import { UI_TIMING } from '@se/core';
import { useEffect, useState } from 'react';

/** `value`, once it has stopped changing for `ms` (SPEC §9: 300 ms for searches). */
export function useDebounced<T>(value: T, ms: number = UI_TIMING.debounceMs): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}
