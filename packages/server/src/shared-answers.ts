/**
 * Answers shared per key (the caller's visibility scope): callers that ask at once share one
 * computation (single flight), an answer younger than `freshMs` is served as is, one younger
 * than `staleMs` is served while a single refresh runs in the background, an older one is
 * computed again. `freshMs` 0 switches sharing off: every call computes (the old behaviour).
 * `notBefore` (ms) asks for an answer computed at or after that time: an older one is not
 * served, but a computation started since then is still shared.
 */
interface Entry<T> {
  /** When the value's computation started (0: none yet). */
  at: number;
  value?: T;
  pending?: Promise<T>;
  pendingAt?: number;
}

export class SharedAnswers<T> {
  /** Computations started so far (an observable seam for tests and benchmarks). */
  computed = 0;
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly freshMs: number,
    private readonly staleMs: number,
    private readonly onRefreshError: (err: unknown) => void = () => {},
  ) {}

  get(key: string, compute: () => Promise<T>, notBefore = 0): Promise<T> {
    if (this.freshMs <= 0) {
      this.computed++;
      return compute();
    }
    const e = this.entries.get(key);
    if (e && e.at < notBefore) {
      // Too old for this caller: share a computation started since `notBefore`, else start one.
      if (e.pending && (e.pendingAt ?? 0) >= notBefore) return e.pending;
      return this.start(key, e, compute);
    }
    if (e?.pending && e.value === undefined) return e.pending;
    if (e && e.value !== undefined) {
      const age = Date.now() - e.at;
      if (age < this.freshMs) return Promise.resolve(e.value);
      if (age < this.staleMs) {
        if (!e.pending) this.start(key, e, compute).catch(this.onRefreshError);
        return Promise.resolve(e.value);
      }
      if (e.pending) return e.pending;
    }
    return this.start(key, e ?? { at: 0 }, compute);
  }

  private start(key: string, e: Entry<T>, compute: () => Promise<T>) {
    this.computed++;
    const at = Date.now();
    const pending = compute().then(
      (value) => {
        this.prune();
        this.entries.set(key, { at, value });
        return value;
      },
      (err: unknown) => {
        // A failed refresh keeps the older answer (until it is too old); the callers waiting see the error.
        if (this.entries.get(key)?.pending === pending) this.entries.set(key, { at: e.at, value: e.value });
        throw err;
      },
    );
    this.entries.set(key, { at: e.at, value: e.value, pending, pendingAt: at });
    return pending;
  }

  /** Drops answers too old to serve, so scopes nobody asks for any more cost no memory. */
  private prune() {
    const now = Date.now();
    for (const [k, e] of this.entries) if (!e.pending && now - e.at >= this.staleMs) this.entries.delete(k);
  }
}
