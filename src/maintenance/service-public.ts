import type { MaintenanceAnnouncement } from "../generated/prisma/client.ts";
import type { Context } from "../context.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { notFound } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import { PUBLIC_MAINTENANCE_CONTRACT } from "./contract.ts";
import { isPublicState, PUBLIC_STATES } from "./enums.ts";
import { listAnnouncements, type MaintenanceListArgs } from "./listing.ts";
import type { MaintenanceQuery } from "./listing.ts";
import { rejectBadToken } from "./visibility.ts";
import { findFirst } from "../platform/reads/sql/find.ts";

/** Waldur §4.4: every organisation's announcements once scheduled, anonymous callers included. */
const PUBLISHED = { state: { in: [...PUBLIC_STATES] } };

export async function listPublicMaintenance(ctx: Context, args: MaintenanceListArgs, query: MaintenanceQuery = {}): Promise<Connection<MaintenanceAnnouncement>> {
  rejectBadToken(ctx);
  return listAnnouncements(ctx, PUBLISHED, PUBLIC_MAINTENANCE_CONTRACT, args, query);
}

export async function getPublicMaintenance(ctx: Context, uuid: string, query: MaintenanceQuery = {}) {
  rejectBadToken(ctx);
  const id = parseUuid(uuid);
  const row = id ? await findFirst(ctx.db, "maintenanceAnnouncement", { ...query, where: { AND: [{ id }, PUBLISHED] } }) : null;
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
