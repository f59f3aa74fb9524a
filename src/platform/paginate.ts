export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 300;

/** Which slice of a list a caller asked for. */
export interface Page {
  skip: number;
  take: number;
}

/** One slice of a list, with the size of the whole list. */
export interface Connection<T> {
  totalCount: number;
  nodes: T[];
  skip: number;
}

/** Any Prisma model delegate whose rows are `T` (their generic signatures do not unify, hence `any`). */
interface Paginatable<T> {
  count(args: any): Promise<number>;
  findMany(args: any): Promise<T[]>;
}

/** One page of a model and the total count, under one filter. */
export async function paginate<T>(
  model: Paginatable<T>,
  args: { where: object; orderBy: object | object[]; page: Page; query?: object },
): Promise<Connection<T>> {
  const [totalCount, nodes] = await Promise.all([
    model.count({ where: args.where }),
    model.findMany({ ...args.query, where: args.where, orderBy: args.orderBy, skip: args.page.skip, take: args.page.take }),
  ]);
  return { totalCount, nodes, skip: args.page.skip };
}
