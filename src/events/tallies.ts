import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { allOrNull, listOf, type PlainFilter, plainCondition, type TallyTable } from "../platform/database/tallies.ts";
import { sumTallies } from "../platform/reads/tally-sums.ts";
import { audienceKeys, eventsVisibleTo, type ViewerAudience } from "./visibility.ts";
import { count } from "../platform/reads/sql/find.ts";

/** How many events there are of each type (the migration's trigger on events writes them). */
export const EVENT_TALLIES: TallyTable<{ eventType: string }> = { table: "event_tallies", columns: { eventType: "event_type" } };
/** How many events each audience (the customers, projects and offerings among their scopes) has, per type. */
export const EVENT_AUDIENCE_TALLIES: TallyTable<{ scopes: string[]; eventType: string }> = {
  table: "event_audience_tallies",
  columns: { scopes: "scopes", eventType: "event_type" },
};
/** How many events concern each user, per audience and type. */
export const EVENT_USER_TALLIES: TallyTable<{ userId: string; eventType: string; scopes: string[] }> = {
  table: "event_user_tallies",
  columns: { userId: "user_id", eventType: "event_type", scopes: "scopes" },
};

type EventWhere = Prisma.EventWhereInput;

/** A condition on the event type alone: every event tally table can answer it. */
interface TypeCondition {
  AND?: TypeCondition[];
  OR?: TypeCondition[];
  NOT?: TypeCondition[];
  eventType?: string | PlainFilter<string>;
}

const allOf = (parts: EventWhere[]) => allOrNull(parts.map(asTypeCondition));

/** `where` as a condition on the tallies, when it asks only about the event type; null otherwise. */
function asTypeCondition(where: EventWhere): TypeCondition | null {
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
 * How many events match `filter` among those `audience` sees (null: all), from the tallies when the filter asks only
 * about event types: staff and support sum the type tallies; anyone else the tallies of the audiences that share one
 * of their roles, plus the events about themselves in any other audience. Any other filter counts row by row.
 */
export async function countVisibleEvents(ctx: Context, filter: EventWhere[], audience: ViewerAudience | null): Promise<number> {
  const byType = asTypeCondition({ AND: filter });
  if (!byType) return count(ctx.db, "event", { AND: [eventsVisibleTo(audience), ...filter] });
  if (!audience) return sumTallies(ctx.db, EVENT_TALLIES, byType);
  const roles = audienceKeys(audience);
  const [ofRoles, ofUser] = await Promise.all([
    roles.length ? sumTallies(ctx.db, EVENT_AUDIENCE_TALLIES, { AND: [byType, { scopes: { hasSome: roles } }] }) : 0,
    sumTallies(ctx.db, EVENT_USER_TALLIES, {
      AND: [byType, { userId: audience.userId }, ...(roles.length ? [{ NOT: { scopes: { hasSome: roles } } }] : [])],
    }),
  ]);
  return ofRoles + ofUser;
}
