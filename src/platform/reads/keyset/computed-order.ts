import { Prisma, type PrismaClient } from "../../../generated/prisma/client.ts";
import { runStatement } from "../../database/lone-statement.ts";
import type { Connection } from "../paginate.ts";
import { isOffsetPage, type KeysetPage, type OffsetPage, type Page } from "../page-requests.ts";
import type { ScalarField } from "../sql/model.ts";
import { exactRead, modelNamed, quote, sqlTypeOf } from "../sql/statement.ts";
import { encodeCursor, listDigest } from "./cursor.ts";
import type { Comparison, Conditions } from "./key-condition.ts";
import type { KeyTerm } from "./key-terms.ts";
import { type KeysetSource, pageBounds, readKeysetPage } from "./keyset-page.ts";

/** A value computed for each row of a list, which only the list's own code knows how to compute (an integer, or null). */
const computedField = (name: string): ScalarField => ({ kind: "scalar", type: "Int", column: name, list: false, nullable: true });

/** A term of a key that orders by a computed value. */
export const computedTerm = (name: string, direction: KeyTerm["direction"]): KeyTerm => ({ path: [name], field: computedField(name), direction, optionalRelations: [] });

/** A list ordered by values its rows do not store: its rows' ids with their computed values, and its key. */
export interface ComputedOrderList {
  /** The listed model, whose own columns the key may name besides the computed values. */
  modelName: string;
  /** Every row of the list: its id, and each computed value by name. */
  rows: ReadonlyArray<{ id: string } & Record<string, string | number | null>>;
  /** The names of the computed values. */
  computed: readonly string[];
  terms: KeyTerm[];
}

const COMPARISONS: { [C in Comparison]: string } = { gt: ">", gte: ">=", lt: "<", lte: "<=" };

/**
 * The list's rows sorted by PostgreSQL (so that text collates and nulls fall as in every other list): the computed
 * values travel with the ids as a JSON recordset (`t`), joined to the model's table (`m`).
 */
class ComputedOrderStatement {
  private readonly from: Prisma.Sql;

  constructor(private readonly list: ComputedOrderList) {
    const model = modelNamed(list.modelName);
    const columns = ["id uuid", ...list.computed.map((name) => `${quote(name)} int4`)].join(", ");
    const rows = JSON.stringify(list.rows.map((row) => Object.fromEntries(["id", ...list.computed].map((name) => [name, row[name]]))));
    this.from = Prisma.sql`FROM jsonb_to_recordset(${rows}::jsonb) AS t(${Prisma.raw(columns)}) JOIN ${Prisma.raw(quote(model.table))} AS m ON m.id = t.id`;
  }

  column(term: KeyTerm): string {
    if (term.path.length !== 1) throw new Error(`${term.path.join(".")}: a computed order reads no relation`);
    return this.list.computed.includes(term.path[0]) ? `t.${quote(term.path[0])}` : `m.${quote(term.field.column)}`;
  }

  readonly conditions: Conditions<Prisma.Sql> = {
    compare: (term, comparison, value) => Prisma.sql`${Prisma.raw(this.column(term))} ${Prisma.raw(COMPARISONS[comparison])} ${this.param(term, value)}`,
    equals: (term, value) => Prisma.sql`${Prisma.raw(this.column(term))} = ${this.param(term, value)}`,
    isNull: (term) => Prisma.raw(`${this.column(term)} IS NULL`),
    isNotNull: (term) => Prisma.raw(`${this.column(term)} IS NOT NULL`),
    all: (parts) => (parts.length ? Prisma.join(parts, " AND ", "(", ")") : Prisma.raw("TRUE")),
    any: (parts) => Prisma.join(parts, " OR ", "(", ")"),
  };

  private param(term: KeyTerm, value: unknown) {
    return Prisma.sql`CAST(${value} AS ${Prisma.raw(sqlTypeOf(term.field))})`;
  }

  /** The ids and key values of the rows that meet `condition`, in the order of `terms`. */
  select(condition: Prisma.Sql, terms: readonly KeyTerm[], slice: { take: number; skip?: number }): Prisma.Sql {
    const keys = terms.map((term, i) => `${exactRead(this.column(term), term.field)} AS ${quote(`$key${i}`)}`).join(", ");
    const order = terms.map((term) => `${this.column(term)} ${term.direction.toUpperCase()}${term.nulls ? ` NULLS ${term.nulls.toUpperCase()}` : ""}`).join(", ");
    const offset = slice.skip ? ` OFFSET ${slice.skip}` : "";
    return Prisma.sql`SELECT m.id::text AS id, ${Prisma.raw(keys)} ${this.from} WHERE ${condition} ORDER BY ${Prisma.raw(order)} LIMIT ${Prisma.raw(`${slice.take}${offset}`)}`;
  }

  exists(condition: Prisma.Sql): Prisma.Sql {
    return Prisma.sql`SELECT 1 ${this.from} WHERE ${condition} LIMIT 1`;
  }
}

type KeyedId = { id: string } & Record<string, unknown>;
const keysOf = (row: KeyedId, count: number) => Array.from({ length: count }, (_, i) => row[`$key${i}`]);

/** The ids of a page, each with its key's values. */
type IdSlice = Pick<Connection<unknown>, "hasNextPage" | "hasPreviousPage"> & { ids: string[]; keys: unknown[][] };

async function offsetSlice(db: PrismaClient, list: ComputedOrderList, statement: ComputedOrderStatement, { offset, size }: OffsetPage): Promise<IdSlice> {
  const rows = size ? await runStatement<KeyedId>(db, statement.select(statement.conditions.all([]), list.terms, { take: size, skip: offset })) : [];
  return {
    ids: rows.map((row) => row.id),
    keys: rows.map((row) => keysOf(row, list.terms.length)),
    hasNextPage: () => offset + rows.length < list.rows.length,
    hasPreviousPage: () => offset > 0,
  };
}

async function keysetSlice(db: PrismaClient, list: ComputedOrderList, statement: ComputedOrderStatement, page: KeysetPage, digest: string): Promise<IdSlice> {
  const bounds = pageBounds(page, digest, list.terms);
  const source: KeysetSource<Prisma.Sql, KeyedId> = {
    conditions: statement.conditions,
    read: async (condition, terms, take) => {
      const rows = await runStatement<KeyedId>(db, statement.select(condition, terms, { take }));
      return { rows, keys: rows.map((row) => keysOf(row, terms.length)) };
    },
    exists: async (condition) => (await runStatement(db, statement.exists(condition))).length > 0,
  };
  const slice = await readKeysetPage(source, list.terms, page, bounds);
  return { ids: slice.rows.map((row) => row.id), keys: slice.keys ?? [], hasNextPage: slice.hasNextPage, hasPreviousPage: slice.hasPreviousPage };
}

/**
 * One page of a list ordered by computed values, by keyset or by position like any other (see paginate), its rows
 * loaded by `load` once the page's ids are known. A row gone by the time it is loaded is left out, with its cursor.
 */
export async function computedOrderConnection<T extends { id: string }>(
  db: PrismaClient,
  list: ComputedOrderList,
  page: Page,
  load: (ids: string[]) => Promise<T[]>,
): Promise<Connection<T>> {
  const statement = new ComputedOrderStatement(list);
  const digest = listDigest(list.modelName, list.terms, page.scope);
  const slice = isOffsetPage(page) ? await offsetSlice(db, list, statement, page) : await keysetSlice(db, list, statement, page, digest);
  const found = new Map((await load(slice.ids)).map((node) => [node.id, node]));
  const kept = slice.ids.flatMap((id, i) => {
    const node = found.get(id);
    return node ? [{ node, key: slice.keys[i] }] : [];
  });
  return {
    totalCount: list.rows.length,
    nodes: kept.map((each) => each.node),
    hasNextPage: slice.hasNextPage,
    hasPreviousPage: slice.hasPreviousPage,
    cursors: () => kept.map((each) => encodeCursor(digest, each.key)),
  };
}
