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

/** Any Prisma model delegate whose rows are `T` and have an `id` (their generic signatures do not unify, hence `any`). */
interface Paginatable<T> {
  count(args: any): Promise<number>;
  findMany(args: any): Promise<T[]>;
}

/** What GraphQL asks of each row (plugin-prisma's queryFromInfo): a selection only, never a condition or an order. */
export type SelectionQuery = { select?: object; include?: object };

/**
 * From this many rows skipped, a page reads the ids of its rows first (the ids alone: an index answers with no row
 * read), then those rows in full; read in one statement, every skipped row would be joined to its relations before
 * the OFFSET drops it.
 */
export const DEEP_PAGE_OFFSET = 1_000;

async function loadSlice<T>(model: Paginatable<T>, args: { where: object; orderBy: object | object[]; query?: SelectionQuery }, { skip, take }: Slice) {
  if (skip < DEEP_PAGE_OFFSET) return model.findMany({ where: args.where, orderBy: args.orderBy, skip, take, ...args.query });
  const ids = (await model.findMany({ where: args.where, orderBy: args.orderBy, skip, take, select: { id: true } })) as Array<{ id: unknown }>;
  if (!ids.length) return [];
  return model.findMany({ where: { id: { in: ids.map((row) => row.id) } }, orderBy: args.orderBy, ...args.query });
}

/**
 * One page of a model and the total count, under one filter; counted first only when the page depends on it. `count`
 * replaces counting the rows of `where` when the list knows a cheaper way to the same number.
 */
export async function paginate<T>(
  model: Paginatable<T>,
  args: { where: object; orderBy: object | object[]; page: Page; query?: SelectionQuery; count?: () => Promise<number> },
): Promise<Connection<T>> {
  const load = (slice: Slice) => loadSlice(model, args, slice);
  const count = args.count ?? (() => model.count({ where: args.where }));
  if (typeof args.page === "function") {
    const totalCount = await count();
    const slice = args.page(totalCount);
    return { totalCount, nodes: slice.take > 0 ? await load(slice) : [], skip: slice.skip };
  }
  const slice = args.page;
  const [totalCount, nodes] = await Promise.all([count(), load(slice)]);
  return { totalCount, nodes, skip: slice.skip };
}
