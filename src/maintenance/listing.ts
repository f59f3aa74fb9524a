import type { Context } from "../context.ts";
import { type MaintenanceAnnouncement, Prisma } from "../generated/prisma/client.ts";
import type { FilterValues, OrderValue } from "../platform/collection-contract.ts";
import type { Connection, Page } from "../platform/paginate.ts";
import { paginate, sliceOf } from "../platform/paginate.ts";
import { findMany } from "../platform/sql-reads/find.ts";
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

/** The SQL of each order field over `m` (the announcement) and `t` (its computed timing, see orderedIds). */
const ORDER_SQL: Record<MaintenanceOrderField, string> = {
  created: "m.created",
  name: "m.name",
  scheduledStart: "m.scheduled_start",
  scheduledEnd: "m.scheduled_end",
  id: "m.id",
  startDeltaMinutes: "t.start_delta_minutes",
  overrunMinutes: "t.overrun_minutes",
};
const COMPUTED: readonly MaintenanceOrderField[] = ["startDeltaMinutes", "overrunMinutes"];
const isComputed = (term: MaintenanceOrderTerm) => COMPUTED.includes(term.field);

function prismaOrder({ field, direction }: MaintenanceOrderTerm): Prisma.MaintenanceAnnouncementOrderByWithRelationInput {
  if (field === "startDeltaMinutes" || field === "overrunMinutes") throw new Error(`${field} is computed; order in SQL`);
  return { [field]: direction };
}

interface Timed {
  id: string;
  start_delta_minutes: number | null;
  overrun_minutes: number | null;
}

/**
 * The ids in `order`, sorted by PostgreSQL (so names collate and nulls fall as in Waldur's annotated queryset): the
 * computed minutes travel with the ids as JSON, so they are computed once, by timingOf.
 */
async function orderedIds(ctx: Context, timed: Timed[], order: MaintenanceOrderTerm[]): Promise<string[]> {
  const orderSql = order.map(({ field, direction }) => `${ORDER_SQL[field]} ${direction === "asc" ? "ASC" : "DESC"}`).join(", ");
  const rows = await ctx.db.$queryRaw<Array<{ id: string }>>`
    SELECT m.id::text AS id
    FROM jsonb_to_recordset(${JSON.stringify(timed)}::jsonb) AS t(id uuid, start_delta_minutes int, overrun_minutes int)
    JOIN maintenance_announcements m ON m.id = t.id
    ORDER BY ${Prisma.raw(orderSql)}`;
  return rows.map((row) => row.id);
}

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
  const where = { AND: [scope, ...(await contract.where(args.filter, { ctx, within: scope }))] };
  const order = contract.orderBy(args.orderBy);
  if (!order.some(isComputed)) return paginate(ctx.db, "maintenanceAnnouncement", { where, orderBy: order.map(prismaOrder), page: args.page, query });
  const candidates = await findMany(ctx.db, "maintenanceAnnouncement", { where, select: { id: true, ...SCHEDULE } });
  const timed = candidates.map((m) => {
    const { startDeltaMinutes, overrunMinutes } = timingOf(m);
    return { id: m.id, start_delta_minutes: startDeltaMinutes, overrun_minutes: overrunMinutes };
  });
  const ids = await orderedIds(ctx, timed, order);
  const { skip, take } = sliceOf(args.page, ids.length);
  const pageIds = ids.slice(skip, skip + take);
  const select = query.select ? { select: { ...query.select, id: true } } : {};
  const rows = await findMany(ctx.db, "maintenanceAnnouncement", { ...query, ...select, where: { id: { in: pageIds } } });
  const position = new Map(pageIds.map((id, i) => [id, i]));
  const nodes = rows.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  return { totalCount: ids.length, nodes, skip };
}
