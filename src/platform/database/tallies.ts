import type { PrismaClient } from "../../generated/prisma/client.ts";
import { MAINTENANCE_TAG, runMaintenance } from "./lone-statement.ts";

/**
 * A tally table: insert-only rows of (keys…, delta) written by a trigger on the table it counts (+1 for a row that
 * arrives under some keys, -1 for one that leaves them), folded in the background into one row per key. A count
 * under a condition on the keys alone sums the deltas instead of reading every row counted.
 */
export interface TallyTable<Keys = Record<string, unknown>> {
  table: string;
  /** Each key's column, by the name conditions give the key, in the order of the table's index on them. */
  columns: { readonly [K in keyof Keys]: string };
}

export const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

const keyColumns = (tally: TallyTable<unknown>): string[] => Object.values(tally.columns);

export const listOf = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every part, or null if one is null: a condition can be said of the tallies only if each of its parts can. */
export function allOrNull<T>(parts: Array<T | null>): T[] | null {
  return parts.every((part): part is T => part !== null) ? parts : null;
}

/** The tallies' totals, one row per key with a total other than zero (what the rows mean, however folded). */
export function totalsSql(tally: TallyTable<unknown>): string {
  const columns = keyColumns(tally).map(quoted).join(", ");
  return `SELECT ${columns}, sum("delta") AS total FROM ${quoted(tally.table)} GROUP BY ${columns} HAVING sum("delta") <> 0`;
}

/** How many rows the tables hold beyond one per key: zero once folded. */
export function unfoldedRowsSql(tables: ReadonlyArray<TallyTable<unknown>>): string {
  return tables.map((tally) => `(SELECT count(*) - count(DISTINCT (${keyColumns(tally).map(quoted).join(", ")})) FROM ${quoted(tally.table)})`).join(" + ");
}

export interface PlainFilter<T> {
  equals?: T;
  in?: T[];
  notIn?: T[];
  not?: T;
}

const isValue = (value: unknown) => typeof value === "string" || typeof value === "boolean";

/** A scalar condition on plain values (no field references, no nested filters), for another model; null otherwise. */
export function plainCondition<T extends string | boolean>(
  filter: T | { equals?: T | object; in?: T[] | object; notIn?: T[] | object; not?: T | object; mode?: unknown },
): T | PlainFilter<T> | null {
  if (typeof filter !== "object") return filter;
  const { equals, in: among, notIn, not, ...rest } = filter;
  const plain =
    Object.values(rest).every((value) => value === undefined) &&
    (equals === undefined || isValue(equals)) &&
    (among === undefined || Array.isArray(among)) &&
    (notIn === undefined || Array.isArray(notIn)) &&
    (not === undefined || isValue(not));
  if (!plain) return null;
  return { equals, in: among, notIn, not };
}

/**
 * Folds into one row the tallies of each key that has more than one, one of them newer than `after` (and not newer
 * than `upTo`), in one statement: the rows it deletes are the rows it sums, so a count read before or after it, or a
 * change written meanwhile, sees the same totals. A key already folded is never rewritten.
 */
export async function foldTallies(db: PrismaClient, tally: TallyTable<unknown>, after = 0n, upTo?: bigint): Promise<number> {
  const name = quoted(tally.table);
  const keys = keyColumns(tally);
  const columns = keys.map(quoted).join(", ");
  const ofT = keys.map((key) => `t.${quoted(key)}`).join(", ");
  const joined = keys.map((key) => `t.${quoted(key)} = touched.${quoted(key)}`).join(" AND ");
  return runMaintenance(
    db,
    `WITH recent AS (SELECT DISTINCT ${columns} FROM ${name} WHERE "id" > $1 AND ($2::bigint IS NULL OR "id" <= $2)),
     touched AS (SELECT ${ofT} FROM ${name} AS t JOIN recent USING (${columns}) GROUP BY ${ofT} HAVING count(*) > 1),
     folded AS (DELETE FROM ${name} AS t USING touched WHERE ${joined} RETURNING ${ofT}, t."delta")
     INSERT INTO ${name} (${columns}, "delta") SELECT ${columns}, sum("delta") FROM folded GROUP BY ${columns} HAVING sum("delta") <> 0`,
    [after, upTo ?? null],
    FOLD_TIMEOUT_MS,
  );
}

/**
 * How long one fold statement may run. Folding is background work that blocks no request (writers only add rows,
 * readers sum what they see), so it is not held to requests' statement timeout: on a slow disk, or after a bulk load
 * of millions of rows, a chunk may need longer, and a fold cancelled every time would never catch up.
 */
const FOLD_TIMEOUT_MS = 120_000;

async function newestId(db: PrismaClient, { table }: TallyTable<unknown>): Promise<bigint> {
  const [row] = await db.$queryRawUnsafe<Array<{ newest: bigint | null }>>(`${MAINTENANCE_TAG} SELECT max("id") AS newest FROM ${quoted(table)}`);
  return row?.newest ?? 0n;
}

/**
 * Rows a fold statement starts from at most: the first fold after a start (or a bulk load) reads the whole table, in
 * statements that each stay well within the statement timeout.
 */
const FOLD_CHUNK = 100_000n;

/**
 * Folds each table's tallies written since its last fold every `intervalMs` (a quiet table is left alone); `close`
 * waits for a fold under way. A row whose transaction commits during a fold may be left as it is until its key
 * changes again: the totals are right either way.
 */
export function foldTalliesEvery(
  db: PrismaClient,
  tables: ReadonlyArray<TallyTable<unknown>>,
  intervalMs: number,
  onError: (error: unknown) => void,
): { close(): Promise<void> } {
  const foldedUpTo = new Map<TallyTable<unknown>, bigint>();
  const fold = async (table: TallyTable<unknown>) => {
    const last = foldedUpTo.get(table);
    const newest = await newestId(db, table);
    if (last !== undefined && newest === last) return;
    // Each chunk's progress is kept: a fold that fails part way resumes after the last chunk it folded.
    for (let from = last ?? 0n; from < newest; from += FOLD_CHUNK) {
      await foldTallies(db, table, from, from + FOLD_CHUNK);
      if (from + FOLD_CHUNK < newest) foldedUpTo.set(table, from + FOLD_CHUNK);
    }
    foldedUpTo.set(table, await newestId(db, table));
  };
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= (async () => {
      for (const table of tables) await fold(table).catch(onError);
    })().finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
