import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { conflict } from "../errors.ts";
import { type Deferred, isOffsetPage, type KeysetPage, type OffsetPage, type Page } from "./page-requests.ts";
import { encodeCursor, listDigest } from "./keyset/cursor.ts";
import { type KeyTerm, keyTermsOf, orderByOf } from "./keyset/key-terms.ts";
import { type KeysetSource, pageBounds, readKeysetPage } from "./keyset/keyset-page.ts";
import { prismaConditions, type Where } from "./keyset/prisma-conditions.ts";
import { count, findMany, findManyWithKeys, type ModelKey, readKeys } from "./sql/find.ts";

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 300;

/** One page of a list, with the size of the whole list. */
export interface Connection<T> {
  totalCount: number;
  nodes: T[];
  hasNextPage: Deferred<boolean>;
  hasPreviousPage: Deferred<boolean>;
  /** Each node's cursor, in the nodes' order. */
  cursors: Deferred<string[]>;
}

/** A list with nothing in it. */
export const emptyConnection = <T>(): Connection<T> => ({ totalCount: 0, nodes: [], hasNextPage: () => false, hasPreviousPage: () => false, cursors: () => [] });

/** What GraphQL asks of each row (plugin-prisma's queryFromInfo): a selection only, never a condition or an order. */
export type SelectionQuery = { select?: object; include?: object };

/** A row of the model as Prisma reads it with no selection: its scalars. */
type Scalars<K extends ModelKey> = Prisma.Result<Prisma.TransactionClient[K], object, "findFirstOrThrow">;

/** The models whose rows have an id, which ends every list's order. */
export type ListedModel = { [K in ModelKey]: Scalars<K> extends { id: string | number } ? K : never }[ModelKey];

export type Row<K extends ModelKey> = Scalars<K> & { id: string | number };

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

type Read<K extends ListedModel> = (args: object) => Promise<Row<K>[]>;

const readRows =
  <K extends ListedModel>(db: PrismaClient, key: K): Read<K> =>
  (args) =>
    findMany(db, key, args as Prisma.Args<Prisma.TransactionClient[K], "findMany">) as Promise<Row<K>[]>;

async function loadSlice<K extends ListedModel>(read: Read<K>, args: ListArgs, { offset, size }: OffsetPage): Promise<Row<K>[]> {
  if (size === 0) return [];
  if (offset < DEEP_PAGE_OFFSET) return read({ where: args.where, orderBy: args.orderBy, skip: offset, take: size, ...args.query });
  const ids = (await read({ where: args.where, orderBy: args.orderBy, skip: offset, take: size, select: { id: true } })).map((row) => row.id);
  if (!ids.length) return [];
  return read({ where: { id: { in: ids } }, orderBy: args.orderBy, ...args.query });
}

const modelNameOf = (key: ModelKey) => `${key[0].toUpperCase()}${key.slice(1)}`;

/** The rows' selection with their ids, which their cursors are read by when the page's read did not give their keys. */
const withId = (query: SelectionQuery | undefined): SelectionQuery => (query?.select ? { select: { ...query.select, id: true } } : (query ?? {}));

/** The cursors of `nodes`, their keys read by id now: one statement. */
async function cursorsReadById<K extends ListedModel>(db: PrismaClient, key: K, terms: KeyTerm[], list: string, nodes: Array<Row<K>>) {
  const keys = await readKeys(db, key, terms.map((term) => term.path), nodes.map((node) => node.id));
  return nodes.map((node) => {
    const values = keys.get(node.id);
    if (!values) throw conflict("The list changed while its cursors were read: read the page again.");
    return encodeCursor(list, values);
  });
}

type PaginateArgs = ListArgs & { page: Page; count?: () => Promise<number> };

/** A page by position: its rows; cursors, if asked for, read by the rows' ids. */
async function offsetConnection<K extends ListedModel>(db: PrismaClient, key: K, args: PaginateArgs, page: OffsetPage, total: () => Promise<number>) {
  const [totalCount, nodes] = await Promise.all([total(), loadSlice(readRows(db, key), args, page)]);
  const cursors = () => {
    const terms = keyTermsOf(modelNameOf(key), args.orderBy);
    return cursorsReadById(db, key, terms, listDigest(modelNameOf(key), terms, page.scope), nodes);
  };
  return { totalCount, nodes, hasNextPage: () => page.offset + nodes.length < totalCount, hasPreviousPage: () => page.offset > 0, cursors };
}

/** A page by keyset: its rows read with their keys, in the key's order (the id last), beyond its cursors. */
async function keysetConnection<K extends ListedModel>(db: PrismaClient, key: K, args: PaginateArgs, page: KeysetPage, total: () => Promise<number>) {
  const terms = keyTermsOf(modelNameOf(key), args.orderBy);
  const list = listDigest(modelNameOf(key), terms, page.scope);
  const bounds = pageBounds(page, list, terms);
  const paths = terms.map((term) => term.path);
  const within = (condition: Where) => ({ AND: [args.where, condition] });
  const source: KeysetSource<Where, Row<K>> = {
    conditions: prismaConditions,
    read: async (condition, order, take) => {
      const findArgs = { where: within(condition), orderBy: orderByOf(order), take, ...args.query };
      if (page.cursors === false) return { rows: await readRows(db, key)(findArgs) };
      return findManyWithKeys(db, key, findArgs as Prisma.Args<Prisma.TransactionClient[K], "findMany">, paths) as Promise<{ rows: Row<K>[]; keys?: unknown[][] }>;
    },
    exists: async (condition) => (await readRows(db, key)({ where: within(condition), select: { id: true }, take: 1 })).length > 0,
  };
  const [totalCount, slice] = await Promise.all([total(), readKeysetPage(source, terms, page, bounds)]);
  const { keys, rows } = slice;
  const cursors = keys ? () => keys.map((values) => encodeCursor(list, values)) : () => cursorsReadById(db, key, terms, list, rows);
  return { totalCount, nodes: rows, hasNextPage: slice.hasNextPage, hasPreviousPage: slice.hasPreviousPage, cursors };
}

/**
 * One page of a model (its delegate's key on `db`: "offeringUser") and the total count, under one filter, in the order
 * of `orderBy` with the id as its final tiebreak. `count` replaces counting the rows of `where` when the list knows a
 * cheaper way to the same number. Reads go through sql-reads: the page and the count are a statement each, sent
 * together; a keyset page's cursors come with its rows.
 */
export async function paginate<K extends ListedModel>(db: PrismaClient, key: K, args: PaginateArgs): Promise<Connection<Row<K>>> {
  const total = args.count ?? (() => count(db, key, args.where));
  const withIds = { ...args, query: withId(args.query) };
  return isOffsetPage(args.page) ? offsetConnection(db, key, withIds, args.page, total) : keysetConnection(db, key, withIds, args.page, total);
}
