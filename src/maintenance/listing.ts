import type { Context } from "../context.ts";
import { type MaintenanceAnnouncement, Prisma } from "../generated/prisma/client.ts";
import type { FilterValues, OrderValue } from "../collections/contract.ts";
import { listPage } from "../collections/list-page.ts";
import { computedOrderConnection, computedTerm } from "../platform/reads/keyset/computed-order.ts";
import { endingWithId, orderTermsOf } from "../platform/reads/keyset/key-terms.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import type { Page } from "../platform/reads/page-requests.ts";
import { findMany } from "../platform/reads/sql/find.ts";
import { MAINTENANCE_CONTRACT, type MaintenanceOrderField, type MaintenanceOrderTerm } from "./contract.ts";
import { SCHEDULE, timingOf } from "./timing.ts";

/** The selection GraphQL asks for (plugin-prisma's queryFromInfo); services return rows shaped by it. */
export type MaintenanceQuery = { select?: Prisma.MaintenanceAnnouncementSelect; include?: Prisma.MaintenanceAnnouncementInclude };

type Contract = typeof MAINTENANCE_CONTRACT;
export interface MaintenanceListArgs {
  filter?: FilterValues<Contract> | null;
  orderBy?: Array<OrderValue<Contract>> | null;
  page: Page;
}

const COMPUTED: readonly MaintenanceOrderField[] = ["startDeltaMinutes", "overrunMinutes"];
const isComputed = (term: MaintenanceOrderTerm) => COMPUTED.includes(term.field);

function prismaOrder({ field, direction }: MaintenanceOrderTerm): Prisma.MaintenanceAnnouncementOrderByWithRelationInput {
  if (field === "startDeltaMinutes" || field === "overrunMinutes") throw new Error(`${field} is computed; order in SQL`);
  return { [field]: direction };
}

/** The key of an order with computed minutes: those, and the announcement's own columns. */
const computedKey = (order: MaintenanceOrderTerm[]) =>
  endingWithId(
    "MaintenanceAnnouncement",
    order.flatMap((term) => (isComputed(term) ? [computedTerm(term.field, term.direction)] : orderTermsOf("MaintenanceAnnouncement", prismaOrder(term)))),
  );

/**
 * One page of the announcements within `scope`, filtered and ordered by the contract. Prisma cannot order by the
 * computed minutes (they are not a column), so those orders read each candidate's schedule first and sort in SQL.
 */
export async function listAnnouncements(
  ctx: Context,
  scope: Prisma.MaintenanceAnnouncementWhereInput,
  contract: Contract,
  args: MaintenanceListArgs,
  query: MaintenanceQuery,
): Promise<Connection<MaintenanceAnnouncement>> {
  const request = { ctx, within: scope };
  const order = contract.orderBy(args.orderBy);
  if (!order.some(isComputed)) {
    return listPage(ctx.db, "maintenanceAnnouncement", contract, { visible: scope, request: args, query, orderBy: (terms) => terms.map(prismaOrder) }, request);
  }
  const where = { AND: [scope, ...(await contract.where(args.filter, request))] };
  const candidates = await findMany(ctx.db, "maintenanceAnnouncement", { where, select: { id: true, ...SCHEDULE } });
  const rows = candidates.map((m) => ({ id: m.id, ...timingOf(m) }));
  const list = { modelName: "MaintenanceAnnouncement", rows, computed: COMPUTED, terms: computedKey(order) };
  const select = query.select ? { select: { ...query.select, id: true } } : {};
  return computedOrderConnection(ctx.db, list, args.page, (ids) => findMany(ctx.db, "maintenanceAnnouncement", { ...query, ...select, where: { id: { in: ids } } }));
}
