import type { PrismaClient } from "../../generated/prisma/client.ts";
import { runText } from "../database/lone-statement.ts";
import { readValue } from "./sql/fused-reads.ts";
import { compileSum } from "./sql/sum.ts";
import type { PlainFilter, TallyTable } from "../database/tallies.ts";

/** A condition on one key: a value, a plain filter, or (for an array key) an overlap with some values. */
type KeyCondition<T> = [T] extends [readonly string[]] ? { hasSome: string[] } : T | PlainFilter<T>;

/**
 * A condition on a tally table's keys, in the part of Prisma's where-language a tally can answer: `AND`, `OR`, `NOT`
 * and plain conditions on the keys. Compiled by sql-reads as any read's condition is, and summed in one statement
 * that goes to the pool straight, not through Prisma's client.
 */
export type TallyCondition<Keys> = {
  AND?: TallyCondition<Keys> | TallyCondition<Keys>[];
  OR?: TallyCondition<Keys>[];
  NOT?: TallyCondition<Keys> | TallyCondition<Keys>[];
} & { [K in keyof Keys]?: KeyCondition<Keys[K]> };

/** The sum of the deltas of the tallies under `condition`: how many rows the counted table has there. */
export async function sumTallies<Keys>(db: PrismaClient, tally: TallyTable<Keys>, condition: TallyCondition<Keys>): Promise<number> {
  return Number((await readValue(db, compileSum(tally.table, condition, "delta"))) ?? 0);
}

/** `sumTallies` per value of the keys `by` (only those with rows), each row naming its keys by field. */
export async function sumTalliesBy<Keys, By extends keyof Keys & string>(
  db: PrismaClient,
  tally: TallyTable<Keys>,
  condition: TallyCondition<Keys>,
  by: readonly By[],
): Promise<Array<Pick<Keys, By> & { total: number }>> {
  const { text, values } = compileSum(tally.table, condition, "delta", by);
  const rows = await runText<Pick<Keys, By> & { total: bigint }>(db, text, values);
  return rows.map((row) => ({ ...row, total: Number(row.total) }));
}
