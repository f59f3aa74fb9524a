import type { Context } from "../context.ts";
import type { Event, Prisma } from "../generated/prisma/client.ts";
import type { FilterValues, OrderValue } from "../collections/contract.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { notFound } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { EVENT_CONTRACT } from "./contract.ts";
import { countVisibleEvents } from "./tallies.ts";
import { eventsVisibleTo, viewerAudience, visibleEvents } from "./visibility.ts";
import { findFirst } from "../platform/reads/sql/find.ts";

export type EventFilter = FilterValues<typeof EVENT_CONTRACT>;
export type EventOrder = OrderValue<typeof EVENT_CONTRACT>;

export type EventQuery = { select?: Prisma.EventSelect; include?: Prisma.EventInclude };

export async function listEvents(ctx: Context, request: ListRequest<typeof EVENT_CONTRACT>, query: EventQuery = {}): Promise<Connection<Event>> {
  const audience = viewerAudience(ctx);
  const count = async (conditions: Prisma.EventWhereInput[]) => countVisibleEvents(ctx, conditions, await audience);
  return listPage(ctx.db, "event", EVENT_CONTRACT, { visible: audience.then(eventsVisibleTo), request, query, count });
}

/** How many events the viewer may see pass the filter. */
export async function countEvents(ctx: Context, filter: EventFilter | null | undefined) {
  const [audience, conditions] = await Promise.all([viewerAudience(ctx), EVENT_CONTRACT.where(filter)]);
  return countVisibleEvents(ctx, conditions, audience);
}

/** Events are addressed by their integer id (as Waldur does) or by uuid. */
export async function getEvent(ctx: Context, key: string, query: EventQuery = {}) {
  const id = /^\d{1,9}$/.test(key) ? { id: Number(key) } : parseUuid(key) ? { uuid: parseUuid(key)! } : null;
  if (!id) throw notFound();
  const event = await findFirst(ctx.db, "event", { ...query, where: { AND: [id, await visibleEvents(ctx)] } });
  if (!event) throw notFound();
  return event;
}
