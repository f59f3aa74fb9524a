import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { batchLoader } from "../platform/batch.ts";
import type { Connection, Page } from "../platform/paginate.ts";
import { sliceOf } from "../platform/paginate.ts";

/**
 * Waldur's `total_customers` of an offering: how many customers have a resource of it that is OK, updating or
 * terminating. Prisma can count a relation but not distinct customers over some of its rows, so it is counted here,
 * and a list ordered by it is sorted here too.
 */

const COUNTED: Prisma.ResourceWhereInput = { state: { in: ["OK", "UPDATING", "TERMINATING"] } };

async function totalCustomers(ctx: Context, offeringIds: string[]): Promise<Map<string, number>> {
  const rows = await ctx.db.resource.findMany({
    where: { ...COUNTED, offeringId: { in: offeringIds } },
    select: { offeringId: true, project: { select: { customerId: true } } },
    distinct: ["offeringId", "projectId"],
  });
  const customers = new Map<string, Set<string>>();
  for (const { offeringId, project } of rows) customers.set(offeringId, (customers.get(offeringId) ?? new Set()).add(project.customerId));
  return new Map(offeringIds.map((id) => [id, customers.get(id)?.size ?? 0]));
}

/** One offering's total, read with every other one a request asks for. */
export async function totalCustomersOf(ctx: Context, offeringId: string): Promise<number> {
  const load = ctx.memo("offering:totalCustomers", () => batchLoader((ids: string[]) => totalCustomers(ctx, ids), (id) => id));
  return (await load(offeringId)) ?? 0;
}

/** The columns the other ordering keys compare, to tell which rows they leave tied. */
const TIED_BY: Record<string, (row: { name: string; created: Date; type: string; state: string }) => string | number> = {
  name: (row) => row.name,
  created: (row) => row.created.getTime(),
  type: (row) => row.type,
  state: (row) => row.state,
  total_cost: () => 0,
  total_cost_estimated: () => 0,
};

/**
 * A page of offerings ordered by `keys` (Waldur keys, `-` for descending) where one is total_customers. The database
 * orders by the others (total_customers ties there); then each run of rows the keys before it leave tied is sorted by
 * the total, stably, so the keys after it still order rows with equal totals.
 */
export async function pageByTotalCustomers<T extends { id: string }>(
  ctx: Context,
  args: { where: Prisma.OfferingWhereInput; orderBy: Prisma.OfferingOrderByWithRelationInput[]; keys: string[]; page: Page },
  loadPage: (ids: string[]) => Promise<T[]>,
): Promise<Connection<T>> {
  const at = args.keys.findIndex((key) => key.replace(/^-/, "") === "total_customers");
  const before = args.keys.slice(0, at).map((key) => TIED_BY[key.replace(/^-/, "")]);
  const sign = args.keys[at].startsWith("-") ? -1 : 1;
  const rows = await ctx.db.offering.findMany({
    where: args.where,
    orderBy: args.orderBy,
    select: { id: true, name: true, created: true, type: true, state: true },
  });
  const totals = await totalCustomers(ctx, rows.map((row) => row.id));
  const total = (row: { id: string }) => totals.get(row.id) ?? 0;
  const sorted: typeof rows = [];
  let run: typeof rows = [];
  const flush = () => sorted.push(...run.sort((a, b) => sign * (total(a) - total(b))));
  for (const row of rows) {
    if (run.length && !before.every((column) => column(run[0]) === column(row))) {
      flush();
      run = [];
    }
    run.push(row);
  }
  flush();
  const { skip, take } = sliceOf(args.page, sorted.length);
  const ids = sorted.slice(skip, skip + take).map((row) => row.id);
  const found = new Map((await loadPage(ids)).map((node) => [node.id, node]));
  return { totalCount: rows.length, nodes: ids.flatMap((id) => found.get(id) ?? []), skip };
}
