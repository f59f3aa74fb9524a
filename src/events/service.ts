import type { Context } from "../context.ts";
import type { Event, Prisma } from "../generated/prisma/client.ts";
import type { FilterValues, OrderValue } from "../collections/contract.ts";
import { notFound } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import type { Page } from "../platform/reads/page-requests.ts";
import { paginate } from "../platform/reads/paginate.ts";
import { EVENT_CONTRACT } from "./contract.ts";
import { countVisibleEvents } from "./tallies.ts";
import { eventsVisibleTo, viewerAudience, visibleEvents } from "./visibility.ts";
import { findFirst } from "../platform/reads/sql/find.ts";

export type EventFilter = FilterValues<typeof EVENT_CONTRACT>;
export type EventOrder = OrderValue<typeof EVENT_CONTRACT>;

export type EventQuery = { select?: Prisma.EventSelect; include?: Prisma.EventInclude };

/** The viewer's visibility and the filter's conditions, and how many events they match. */
async function selection(ctx: Context, filter: EventFilter | null | undefined) {
  const [audience, conditions] = await Promise.all([viewerAudience(ctx), EVENT_CONTRACT.where(filter)]);
  const visible = eventsVisibleTo(audience);
  return { where: { AND: [visible, ...conditions] }, count: () => countVisibleEvents(ctx, conditions, audience) };
}

/** The chosen order; events of one transaction share their time and keep the order they were written in. */
function eventOrder(orderBy: EventOrder | null | undefined): Prisma.EventOrderByWithRelationInput[] {
  const [byTime] = EVENT_CONTRACT.orderBy(orderBy ? [orderBy] : null);
  return [byTime, { id: byTime.created === "asc" ? "asc" : "desc" }];
}

export async function listEvents(
  ctx: Context,
  args: { filter?: EventFilter | null; orderBy?: EventOrder | null; page: Page },
  query: EventQuery = {},
): Promise<Connection<Event>> {
  const { where, count } = await selection(ctx, args.filter);
  return paginate(ctx.db, "event", { where, orderBy: eventOrder(args.orderBy), page: args.page, query, count });
}

export async function countEvents(ctx: Context, filter: EventFilter | null | undefined) {
  return (await selection(ctx, filter)).count();
}

/** Events are addressed by their integer id (as Waldur does) or by uuid. */
export async function getEvent(ctx: Context, key: string, query: EventQuery = {}) {
  const id = /^\d{1,9}$/.test(key) ? { id: Number(key) } : parseUuid(key) ? { uuid: parseUuid(key)! } : null;
  if (!id) throw notFound();
  const event = await findFirst(ctx.db, "event", { ...query, where: { AND: [id, await visibleEvents(ctx)] } });
  if (!event) throw notFound();
  return event;
}
