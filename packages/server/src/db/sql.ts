/** SQL fragments shared by repositories. */
import { TZ_OFFSET_SQL } from '@se/core';

/** A timestamptz column as 'YYYY-MM-DD HH:mm:ss' in the product's zone, UTC+8 (SPEC §5). */
export const localTime = (col: string) =>
  `to_char((${col} AT TIME ZONE 'UTC') + ${TZ_OFFSET_SQL}, 'YYYY-MM-DD HH24:MI:SS')`;

/** A 'YYYY-MM-DD HH:mm:ss' parameter in UTC+8 as timestamptz. */
export const fromLocal = (param: string) => `((${param})::timestamp - ${TZ_OFFSET_SQL}) AT TIME ZONE 'UTC'`;

/** Escapes LIKE wildcards so user text matches literally. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export const offset = (page: number, pageSize: number) => (page - 1) * pageSize;

/** Collects parameters while a query is assembled: `p(value)` answers its placeholder. */
export class Params {
  readonly values: unknown[] = [];
  p(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
