import type { Prisma, PrismaClient } from "../generated/prisma/client.ts";
import { count, findMany, type ModelKey } from "./sql-reads/find.ts";

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 300;

/** Which slice of a list a caller asked for. */
export interface Slice {
  skip: number;
  take: number;
}

/** A slice, or how to find one once the list's length is known (a page counted from the end). */
export type Page = Slice | ((totalCount: number) => Slice);

export const sliceOf = (page: Page, totalCount: number): Slice => (typeof page === "function" ? page(totalCount) : page);

/** One slice of a list, with the size of the whole list. */
export interface Connection<T> {
  totalCount: number;
  nodes: T[];
  skip: number;
}

/** What GraphQL asks of each row (plugin-prisma's queryFromInfo): a selection only, never a condition or an order. */
export type SelectionQuery = { select?: object; include?: object };

/** A row of the model as Prisma reads it with no selection: its scalars. */
type Row<K extends ModelKey> = Prisma.Result<Prisma.TransactionClient[K], object, "findFirstOrThrow">;

/**
 * From this many rows skipped, a page reads the ids of its rows first (the ids alone: an index answers with no row
 * read), then those rows in full; read in one statement, every skipped row would be joined to its relations before
 * the OFFSET drops it.
 */
export const DEEP_PAGE_OFFSET = 1_000;

interface ListArgs {
  where: object;
  orderBy: object | object[];
  query?: SelectionQuery;
}

async function loadSlice<K extends ModelKey>(db: PrismaClient, key: K, args: ListArgs, { skip, take }: Slice): Promise<Row<K>[]> {
  const read = (more: object) => findMany(db, key, more as Prisma.Args<Prisma.TransactionClient[K], "findMany">) as Promise<Row<K>[]>;
  if (skip < DEEP_PAGE_OFFSET) return read({ where: args.where, orderBy: args.orderBy, skip, take, ...args.query });
  const ids = (await read({ where: args.where, orderBy: args.orderBy, skip, take, select: { id: true } })) as Array<{ id: unknown }>;
  if (!ids.length) return [];
  return read({ where: { id: { in: ids.map((row) => row.id) } }, orderBy: args.orderBy, ...args.query });
}

/**
 * One page of a model (its delegate's key on `db`: "offeringUser") and the total count, under one filter; counted
 * first only when the page depends on it. `count` replaces counting the rows of `where` when the list knows a cheaper
 * way to the same number. Both read through sql-reads: one statement each, sent to the pool straight.
 */
export async function paginate<K extends ModelKey>(
  db: PrismaClient,
  key: K,
  args: ListArgs & { page: Page; count?: () => Promise<number> },
): Promise<Connection<Row<K>>> {
  const load = (slice: Slice) => loadSlice(db, key, args, slice);
  const total = args.count ?? (() => count(db, key, args.where));
  if (typeof args.page === "function") {
    const totalCount = await total();
    const slice = args.page(totalCount);
    return { totalCount, nodes: slice.take > 0 ? await load(slice) : [], skip: slice.skip };
  }
  const slice = args.page;
  const [totalCount, nodes] = await Promise.all([total(), load(slice)]);
  return { totalCount, nodes, skip: slice.skip };
}
