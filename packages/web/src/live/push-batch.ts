import { useEffect, useRef } from 'react';

/**
 * Pushes gathered and handed over together at most once per `delayMs`: a list that patches
 * its rows per push would render once per device report (tens a second on a busy fleet);
 * batched, it renders a few times a second whatever the rate.
 */
export function pushBatcher<T>(apply: (items: T[]) => void, delayMs: number) {
  let items: T[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const batch = items;
    items = [];
    if (batch.length) apply(batch);
  };
  return {
    add(item: T) {
      items.push(item);
      timer ??= setTimeout(flush, delayMs);
    },
    /** Hands over what is waiting now. */
    flush() {
      clearTimeout(timer);
      flush();
    },
    /** Drops what is waiting (the screen is gone). */
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      items = [];
    },
  };
}

/** How often a live list renders its pushed rows at most. */
export const LIVE_BATCH_MS = 250;

/**
 * A component's batcher: `apply` (which may change between renders) gets the pushes of each
 * `delayMs`; what is waiting when the component goes is dropped.
 */
export function usePushBatch<T>(apply: (items: T[]) => void, delayMs = LIVE_BATCH_MS) {
  const latest = useRef(apply);
  useEffect(() => {
    latest.current = apply;
  });
  const batcher = useRef<ReturnType<typeof pushBatcher<T>>>(null);
  batcher.current ??= pushBatcher<T>((items) => latest.current(items), delayMs);
  useEffect(() => () => batcher.current?.cancel(), []);
  return batcher.current;
}
