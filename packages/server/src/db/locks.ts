import type { Queryable } from './index.ts';

/**
 * Takes a transaction-scoped PostgreSQL advisory lock on a text key (hashed), so
 * concurrent transactions on the same key (an e-mail address) queue. PostgreSQL only:
 * PGlite runs one transaction at a time, and callers skip it there.
 */
export async function lockTextKey(tx: Queryable, key: string) {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}
