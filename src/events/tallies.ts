import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { allOrNull, listOf, plainCondition, type TallyTable } from "../platform/tallies.ts";

/** How many events there are of each type (the migration's trigger on events writes them). */
export const EVENT_TALLIES: TallyTable = { table: "event_tallies", keys: ["event_type"] };

type EventWhere = Prisma.EventWhereInput;
type TallyWhere = Prisma.EventTallyWhereInput;

const allOf = (parts: EventWhere[]) => allOrNull(parts.map(asTallyWhere));

/** `where` as a condition on the tallies, when it asks only about the event type; null otherwise. */
function asTallyWhere(where: EventWhere): TallyWhere | null {
  const { AND, OR, NOT, eventType, ...rest } = where;
  if (Object.values(rest).some((value) => value !== undefined)) return null;
  const and = AND === undefined ? [] : allOf(listOf(AND));
  const or = OR === undefined ? undefined : allOf(OR);
  const not = NOT === undefined ? [] : allOf(listOf(NOT));
  const onType = eventType === undefined ? undefined : plainCondition<string>(eventType);
  if (and === null || or === null || not === null || onType === null) return null;
  return { AND: and, ...(or ? { OR: or } : {}), ...(not.length ? { NOT: not } : {}), ...(onType === undefined ? {} : { eventType: onType }) };
}

/**
 * How many events match `filter` among those the viewer sees (`visible`). Staff and support, who see every event,
 * sum the tallies when the filter asks only about event types; anything else is counted row by row.
 */
export async function countVisibleEvents(ctx: Context, filter: EventWhere[], visible: EventWhere): Promise<number> {
  const byType = ctx.access.readsAll ? asTallyWhere({ AND: filter }) : null;
  if (!byType) return ctx.db.event.count({ where: { AND: [visible, ...filter] } });
  const { _sum } = await ctx.db.eventTally.aggregate({ where: byType, _sum: { delta: true } });
  return _sum.delta ?? 0;
}
