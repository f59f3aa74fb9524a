import { Prisma, type PrismaClient } from "../generated/prisma/client.ts";
import { runStatement } from "./lone-statement.ts";
import { listOf, type PlainFilter, quoted, type TallyTable } from "./tallies.ts";

type KeyValue = string | boolean;

/** A condition on one key: a value, a plain filter, or (for an array key) an overlap with some values. */
type KeyCondition<T> = [T] extends [readonly string[]] ? { hasSome: string[] } : T | PlainFilter<T>;

/**
 * A condition on a tally table's keys, in the part of Prisma's where-language a tally can answer: `AND`, `OR`, `NOT`
 * and plain conditions on the keys. Read with the tables' own statements (below), not through Prisma's client.
 */
export type TallyCondition<Keys> = {
  AND?: TallyCondition<Keys> | TallyCondition<Keys>[];
  OR?: TallyCondition<Keys>[];
  NOT?: TallyCondition<Keys> | TallyCondition<Keys>[];
} & { [K in keyof Keys]?: KeyCondition<Keys[K]> };

const TRUE = Prisma.sql`TRUE`;
const FALSE = Prisma.sql`FALSE`;
const joined = (parts: Prisma.Sql[], operator: string, empty: Prisma.Sql) =>
  parts.length ? Prisma.sql`(${Prisma.join(parts, ` ${operator} `)})` : empty;
/** Lists are spelled out, one parameter per value: the embedded database's adapter cannot send an array parameter. */
const among = (values: readonly KeyValue[]) => Prisma.join(values);

function keySql(column: Prisma.Sql, condition: KeyValue | PlainFilter<KeyValue> | { hasSome: string[] }): Prisma.Sql {
  if (typeof condition !== "object") return Prisma.sql`${column} = ${condition}`;
  if ("hasSome" in condition) return condition.hasSome.length ? Prisma.sql`${column} && ARRAY[${among(condition.hasSome)}]::text[]` : FALSE;
  const { equals, in: inside, notIn, not } = condition;
  return joined(
    [
      ...(equals === undefined ? [] : [Prisma.sql`${column} = ${equals}`]),
      ...(inside === undefined ? [] : [inside.length ? Prisma.sql`${column} IN (${among(inside)})` : FALSE]),
      ...(notIn === undefined || !notIn.length ? [] : [Prisma.sql`${column} NOT IN (${among(notIn)})`]),
      ...(not === undefined ? [] : [Prisma.sql`${column} <> ${not}`]),
    ],
    "AND",
    TRUE,
  );
}

/** `condition` as SQL on `tally`'s columns; as in Prisma, an empty `OR` holds for no row and `NOT` for none of its parts. */
export function tallyConditionSql<Keys>(tally: TallyTable<Keys>, condition: TallyCondition<Keys>): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  for (const [field, value] of Object.entries(condition) as Array<[string, unknown]>) {
    if (value === undefined) continue;
    if (field === "AND") parts.push(...listOf(value as TallyCondition<Keys>).map((part) => tallyConditionSql(tally, part)));
    else if (field === "OR") parts.push(joined((value as TallyCondition<Keys>[]).map((part) => tallyConditionSql(tally, part)), "OR", FALSE));
    else if (field === "NOT") parts.push(...listOf(value as TallyCondition<Keys>).map((part) => Prisma.sql`NOT ${tallyConditionSql(tally, part)}`));
    else parts.push(keySql(Prisma.raw(quoted(tally.columns[field as keyof Keys])), value as KeyValue));
  }
  return joined(parts, "AND", TRUE);
}

/** The sum of the deltas of the tallies under `condition`: how many rows the counted table has there. */
export async function sumTallies<Keys>(db: PrismaClient, tally: TallyTable<Keys>, condition: TallyCondition<Keys>): Promise<number> {
  const where = tallyConditionSql(tally, condition);
  const [row] = await runStatement<{ total: bigint | null }>(
    db,
    Prisma.sql`SELECT sum("delta")::bigint AS "total" FROM ${Prisma.raw(quoted(tally.table))} WHERE ${where}`,
  );
  return Number(row?.total ?? 0);
}

/** `sumTallies` per value of the keys `by` (only those with rows), each row naming its keys by field. */
export async function sumTalliesBy<Keys, By extends keyof Keys & string>(
  db: PrismaClient,
  tally: TallyTable<Keys>,
  condition: TallyCondition<Keys>,
  by: readonly By[],
): Promise<Array<Pick<Keys, By> & { total: number }>> {
  const columns = by.map((field) => Prisma.raw(quoted(tally.columns[field])));
  const named = by.map((field, i) => Prisma.sql`${columns[i]} AS ${Prisma.raw(quoted(field))}`);
  const rows = await runStatement<Pick<Keys, By> & { total: bigint }>(
    db,
    Prisma.sql`SELECT ${Prisma.join(named)}, sum("delta")::bigint AS "total" FROM ${Prisma.raw(quoted(tally.table))}
      WHERE ${tallyConditionSql(tally, condition)} GROUP BY ${Prisma.join(columns)}`,
  );
  return rows.map((row) => ({ ...row, total: Number(row.total) }));
}
