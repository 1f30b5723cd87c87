/**
 * A page's rows as the JSON array text the database wrote (`selectPage` with `json: true`).
 * An API answer carries the text as it is (http/route.ts), so the rows of a list page are
 * never parsed into objects by the driver, copied between threads as objects (PGlite's
 * worker) or written out again by JSON.stringify: per row and column that work cost more
 * than the query itself (docs/architecture.md, "A list page is JSON from the database").
 */
export class JsonRows<T> {
  /** The rows' type, for the compiler only. */
  declare readonly rowType: T;

  constructor(readonly text: string) {}

  /** The rows as objects, for a caller that reads them (a test, an export). */
  parse(): T[] {
    return JSON.parse(this.text) as T[];
  }
}
