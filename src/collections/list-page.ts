import type { PrismaClient } from "../generated/prisma/client.ts";
import type { Page } from "../platform/reads/page-requests.ts";
import { type Connection, type ListedModel, paginate, type Row, type SelectionQuery } from "../platform/reads/paginate.ts";
import type { CollectionContract, FilterValues, OrderValue } from "./contract.ts";

/** What a list asks of its collection: the filter, the order chosen and the page. */
export interface ListRequest<C extends CollectionContract> {
  filter?: FilterValues<C> | null;
  orderBy?: Array<OrderValue<C>> | null;
  page: Page;
}

/**
 * A contract as `defineContract` returns it: its filter values `V` turned into `where`s `W` (given the request `R`, if
 * any filter needs it), its order values `O` into order terms `T`.
 */
interface DefinedContract<V, R extends unknown[], W, O, T> {
  where(values: V | null | undefined, ...request: R): Promise<W[]>;
  orderBy(chosen: readonly O[] | null | undefined): T[];
}

export interface ListPageSpec<V, W, O, T> {
  /** The rows the viewer may see (every row when absent), narrowed by the contract's filters. */
  visible?: W | Promise<W>;
  request: { filter?: V | null; orderBy?: O[] | null; page: Page };
  query?: SelectionQuery;
  /** The list's size by a cheaper way than counting its rows, given the filters' `where`s. */
  count?: (filters: W[]) => Promise<number>;
  /** Prisma's `orderBy` of the contract's order, when its terms are not Prisma's own (or lists of them). */
  orderBy?: (terms: T[]) => object[];
}

/**
 * One page of a collection (the model `model`): the visible rows its contract's filters let through, in the contract's
 * order. `request` is what the filters that need it are given (the contract's `where` says which).
 */
export async function listPage<K extends ListedModel, V, R extends unknown[], W, O, T>(
  db: PrismaClient,
  model: K,
  contract: DefinedContract<V, R, W, O, T>,
  spec: ListPageSpec<V, W, O, T>,
  ...request: R
): Promise<Connection<Row<K>>> {
  const [visible, filters] = await Promise.all([spec.visible, contract.where(spec.request.filter, ...request)]);
  const where = { AND: visible === undefined ? filters : [visible, ...filters] };
  const terms = contract.orderBy(spec.request.orderBy);
  const orderBy = spec.orderBy ? spec.orderBy(terms) : terms.flat();
  const { count } = spec;
  return paginate(db, model, { where, orderBy, page: spec.request.page, query: spec.query, count: count && (() => count(filters)) });
}
