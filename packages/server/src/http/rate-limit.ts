/** Fixed-window counters in memory; enough for one process (the scale-out mode uses Redis). */
export class RateLimiter {
  private windows = new Map<string, { count: number; resetAt: number }>();
  private sweepAt = 0;

  /** Counts one hit for `key`; false once more than `max` hits fell in the current window. */
  hit(key: string, max: number, windowMs: number, now = Date.now()): boolean {
    if (now > this.sweepAt) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return w.count <= max;
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    this.sweepAt = now + 60_000;
  }
}
