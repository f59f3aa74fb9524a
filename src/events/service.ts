import type { Context } from "../context.ts";
import type { EventScopeType, Prisma } from "../generated/prisma/client.ts";
import type { Connection, Page } from "../platform/paginate.ts";
import { fieldError, notFound } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import { paginate } from "../platform/paginate.ts";
import { icontains } from "../platform/text-match.ts";
import { visibleEvents } from "./visibility.ts";

export interface EventFilter {
  eventType?: string[] | null;
  scope?: { type: EventScopeType; uuid: string } | null;
  createdFrom?: number | null;
  createdTo?: number | null;
  message?: string | null;
  userUuid?: string | null;
  customerUuid?: string | null;
  projectUuid?: string | null;
}

export type EventQuery = { select?: Prisma.EventSelect; include?: Prisma.EventInclude };

const uuidOf = (field: string, value: string) => {
  const id = parseUuid(value);
  if (!id) throw fieldError(field, "Enter a valid UUID.");
  return id;
};

const inScope = (scopeType: EventScopeType, scopeId: string): Prisma.EventWhereInput => ({
  scopes: { some: { scopeType, scopeId } },
});

const fromUnix = (field: string, seconds: number) => {
  const date = new Date(seconds * 1000);
  if (!Number.isFinite(seconds) || Number.isNaN(date.getTime())) throw fieldError(field, "Enter a number.");
  return date;
};

function eventWhere(f: EventFilter | null | undefined): Prisma.EventWhereInput[] {
  if (!f) return [];
  const where: Prisma.EventWhereInput[] = [];
  if (f.eventType?.length) where.push({ eventType: { in: f.eventType } });
  if (f.scope) where.push(inScope(f.scope.type, uuidOf("scope", f.scope.uuid)));
  if (f.createdFrom != null) where.push({ created: { gte: fromUnix("created_from", f.createdFrom) } });
  if (f.createdTo != null) where.push({ created: { lt: fromUnix("created_to", f.createdTo) } });
  if (f.message) where.push({ message: icontains(f.message) });
  if (f.userUuid) where.push(inScope("USER", uuidOf("user_uuid", f.userUuid)));
  if (f.customerUuid) where.push(inScope("CUSTOMER", uuidOf("customer_uuid", f.customerUuid)));
  if (f.projectUuid) where.push(inScope("PROJECT", uuidOf("project_uuid", f.projectUuid)));
  return where;
}

export type EventOrder = "CREATED_ASC" | "CREATED_DESC";

async function whereFor(ctx: Context, filter: EventFilter | null | undefined): Promise<Prisma.EventWhereInput> {
  return { AND: [await visibleEvents(ctx), ...eventWhere(filter)] };
}

export async function listEvents(
  ctx: Context,
  args: { filter?: EventFilter | null; orderBy?: EventOrder | null; page: Page },
  query: EventQuery = {},
): Promise<Connection<unknown>> {
  const where = await whereFor(ctx, args.filter);
  const direction = args.orderBy === "CREATED_ASC" ? "asc" : "desc";
  return paginate(ctx.db.event, { where, orderBy: [{ created: direction }, { id: direction }], page: args.page, query });
}

export async function countEvents(ctx: Context, filter: EventFilter | null | undefined) {
  return ctx.db.event.count({ where: await whereFor(ctx, filter) });
}

/** Events are addressed by their integer id (as Waldur does) or by uuid. */
export async function getEvent(ctx: Context, key: string, query: EventQuery = {}) {
  const id = /^\d{1,9}$/.test(key) ? { id: Number(key) } : parseUuid(key) ? { uuid: parseUuid(key)! } : null;
  if (!id) throw notFound();
  const event = await ctx.db.event.findFirst({ ...query, where: { AND: [id, await visibleEvents(ctx)] } });
  if (!event) throw notFound();
  return event;
}
