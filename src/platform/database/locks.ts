import type { Tx } from "./transaction.ts";

/**
 * Transaction-scoped advisory locks on string keys, taken in the order given and released at commit or rollback.
 * For check-then-insert on rows that do not exist yet (no row to lock FOR UPDATE). Under READ COMMITTED, whoever
 * waited reads what the holder committed. Keep keys prefixed by their domain, and take several in one fixed order.
 */
export async function advisoryLock(tx: Tx, keys: string[]): Promise<void> {
  await tx.$queryRaw`SELECT count(*)::int AS locked FROM (
    SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest(${keys}::text[]) WITH ORDINALITY AS u(k, i) ORDER BY i
  ) AS l`;
}
