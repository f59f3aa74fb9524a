import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { batchLoader } from "../platform/database/batch.ts";
import { computedOrderConnection, computedTerm } from "../platform/reads/keyset/computed-order.ts";
import { endingWithId, orderTermsOf } from "../platform/reads/keyset/key-terms.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import type { Page } from "../platform/reads/page-requests.ts";
import { findMany } from "../platform/reads/sql/find.ts";

/**
 * Waldur's `total_customers` of an offering: how many customers have a resource of it that is OK, updating or
 * terminating. Prisma can count a relation but not distinct customers over some of its rows, so it is counted here,
 * and a list ordered by it is sorted with the counts at hand.
 */

const COUNTED: Prisma.ResourceWhereInput = { state: { in: ["OK", "UPDATING", "TERMINATING"] } };

async function totalCustomers(ctx: Context, offeringIds: string[]): Promise<Map<string, number>> {
  const rows = await findMany(ctx.db, "resource", {
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

const TOTAL = "totalCustomers";

/**
 * A page of offerings ordered by `keys` (Waldur keys, `-` for descending; `orderBy` holds Prisma's order of each, then
 * the tiebreak) where one is total_customers: the totals of every offering of the list are counted, then PostgreSQL
 * sorts by them in their place among the other keys (see computedOrderConnection).
 */
export async function pageByTotalCustomers<T extends { id: string }>(
  ctx: Context,
  args: { where: Prisma.OfferingWhereInput; orderBy: Prisma.OfferingOrderByWithRelationInput[]; keys: string[]; page: Page },
  loadPage: (ids: string[]) => Promise<T[]>,
): Promise<Connection<T>> {
  const candidates = await findMany(ctx.db, "offering", { where: args.where, select: { id: true } });
  const totals = await totalCustomers(ctx, candidates.map((row) => row.id));
  const chosen = args.keys.map((key, i) =>
    key.replace(/^-/, "") === "total_customers" ? [computedTerm(TOTAL, key.startsWith("-") ? "desc" : "asc")] : orderTermsOf("Offering", args.orderBy[i]),
  );
  const terms = endingWithId("Offering", [...chosen.flat(), ...orderTermsOf("Offering", args.orderBy.slice(args.keys.length))]);
  const rows = candidates.map(({ id }) => ({ id, [TOTAL]: totals.get(id) ?? 0 }));
  return computedOrderConnection(ctx.db, { modelName: "Offering", rows, computed: [TOTAL], terms }, args.page, loadPage);
}
