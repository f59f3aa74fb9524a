import type { Context } from "../context.ts";
import type { Connection, Page } from "../platform/paginate.ts";
import { notFound } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import { paginate } from "../platform/paginate.ts";
import { isPublicState, PUBLIC_STATES } from "./enums.ts";
import { type MaintenanceFilter, type MaintenanceOrder, maintenanceOrderBy, maintenanceWhere } from "./filters.ts";
import type { MaintenanceQuery } from "./service.ts";
import { rejectBadToken } from "./visibility.ts";

/** Waldur §4.4: every organisation's announcements once scheduled, anonymous callers included. */
const PUBLISHED = { state: { in: [...PUBLIC_STATES] } };

export async function listPublicMaintenance(
  ctx: Context,
  args: { filter?: MaintenanceFilter | null; orderBy?: MaintenanceOrder[] | null; page: Page },
  query: MaintenanceQuery = {},
): Promise<Connection<unknown>> {
  rejectBadToken(ctx);
  const where = { AND: [PUBLISHED, ...maintenanceWhere(args.filter)] };
  const orderBy = maintenanceOrderBy(args.orderBy, "SCHEDULED_START_DESC");
  return paginate(ctx.db.maintenanceAnnouncement, { where, orderBy, page: args.page, query });
}

export async function getPublicMaintenance(ctx: Context, uuid: string, query: MaintenanceQuery = {}) {
  rejectBadToken(ctx);
  const id = parseUuid(uuid);
  const row = id ? await ctx.db.maintenanceAnnouncement.findFirst({ ...query, where: { AND: [{ id }, PUBLISHED] } }) : null;
  if (!row) throw notFound();
  return row;
}

export type PublicChangeKind = "ENTERED" | "UPDATED" | "LEFT";

/** How a change looks from the public view, or null when the announcement was never public around it. */
export function publicChangeKind(change: { previousState: string | null; state: string | null }): PublicChangeKind | null {
  const was = isPublicState(change.previousState);
  const is = isPublicState(change.state);
  if (is) return was ? "UPDATED" : "ENTERED";
  return was ? "LEFT" : null;
}
