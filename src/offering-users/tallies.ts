import type { Context } from "../context.ts";
import type { OfferingUserState, Prisma } from "../generated/prisma/client.ts";
import { allOrNull, listOf, plainCondition, type TallyTable } from "../platform/database/tallies.ts";
import { sumTallies, sumTalliesBy, type TallyCondition } from "../platform/reads/tally-sums.ts";
import type { OfferingUserVisibility } from "./visibility.ts";
import { count, findMany } from "../platform/reads/sql/find.ts";

type OfferingUserWhere = Prisma.OfferingUserWhereInput;
type TallyKeys = { offeringId: string; state: OfferingUserState; hasConsent: boolean };
type TallyWhere = TallyCondition<TallyKeys>;

/** How many offering users each offering has in each state, with and without consent (written by triggers). */
export const OFFERING_USER_TALLIES: TallyTable<TallyKeys> = {
  table: "offering_user_tallies",
  columns: { offeringId: "offering_id", state: "state", hasConsent: "has_consent" },
};

const allOf = async (ctx: Context, parts: OfferingUserWhere[]) => allOrNull(await Promise.all(parts.map((part) => asTallyWhere(ctx, part))));

async function offeringIdsWhere(ctx: Context, where: Prisma.OfferingWhereInput): Promise<string[]> {
  return (await findMany(ctx.db, "offering", { where, select: { id: true } })).map((offering) => offering.id);
}

/** An offering-user condition on the offering as a condition on offering ids (offerings are few: read them). */
async function offeringCondition(ctx: Context, filter: NonNullable<OfferingUserWhere["offering"]>): Promise<TallyWhere> {
  if ("is" in filter || "isNot" in filter) {
    const [is, isNot] = await Promise.all([
      filter.is ? offeringIdsWhere(ctx, filter.is) : null,
      filter.isNot ? offeringIdsWhere(ctx, filter.isNot) : null,
    ]);
    return { AND: [...(is ? [{ offeringId: { in: is } }] : []), ...(isNot ? [{ offeringId: { notIn: isNot } }] : [])] };
  }
  return { offeringId: { in: await offeringIdsWhere(ctx, filter) } };
}

/**
 * `where` as a condition on the tallies, when it asks only about the offering, the state and the consent (conditions
 * on the offering itself are resolved to offering ids); null when it asks about anything else (the user, the username…).
 */
async function asTallyWhere(ctx: Context, where: OfferingUserWhere): Promise<TallyWhere | null> {
  const { AND, OR, NOT, state, offeringId, offering, hasConsent, ...rest } = where;
  if (Object.values(rest).some((value) => value !== undefined)) return null;
  const [and, or, not, onOffering] = await Promise.all([
    AND === undefined ? [] : allOf(ctx, listOf(AND)),
    OR === undefined ? undefined : allOf(ctx, OR),
    NOT === undefined ? [] : allOf(ctx, listOf(NOT)),
    offering === undefined ? undefined : offeringCondition(ctx, offering),
  ]);
  const onOfferingId = offeringId === undefined ? undefined : plainCondition<string>(offeringId);
  const onState = state === undefined ? undefined : plainCondition<OfferingUserState>(state);
  const onConsent = hasConsent === undefined ? undefined : plainCondition<boolean>(hasConsent);
  if (and === null || or === null || not === null || onOfferingId === null || onState === null || onConsent === null) return null;
  return {
    AND: [...and, ...(onOffering ? [onOffering] : [])],
    ...(or ? { OR: or } : {}),
    ...(not.length ? { NOT: not } : {}),
    ...(onState === undefined ? {} : { state: onState }),
    ...(onOfferingId === undefined ? {} : { offeringId: onOfferingId }),
    ...(onConsent === undefined ? {} : { hasConsent: onConsent }),
  };
}

/** One way to read an offering-user total: from the tallies, from the rows, and how two partial totals add up. */
interface TotalReader<T> {
  tallies(where: TallyWhere): Promise<T>;
  rows(where: OfferingUserWhere): Promise<T>;
  add(a: T, b: T): T;
}

/**
 * A total over the offering users that match `filter` among those the viewer sees. The whole offerings the viewer
 * sees are read from the tallies when the filter asks only about offerings, states and consent; the single records
 * they see beyond those are read from the rows. Anything else is read from the rows.
 */
async function visibleTotal<T>(ctx: Context, filter: OfferingUserWhere[], visibility: OfferingUserVisibility, read: TotalReader<T>): Promise<T> {
  const [byFilter, byOffering] = await Promise.all([
    asTallyWhere(ctx, { AND: filter }),
    visibility.all || !visibility.offerings ? undefined : asTallyWhere(ctx, visibility.offerings),
  ]);
  if (byFilter === null || byOffering === null) return read.rows({ AND: [visibility.where, ...filter] });
  if (visibility.all) return read.tallies(byFilter);
  if (!visibility.offerings || !byOffering) return read.rows({ AND: [visibility.records, ...filter] });
  const [onOfferings, beyond] = await Promise.all([
    read.tallies({ AND: [byFilter, byOffering] }),
    read.rows({ AND: [visibility.records, { NOT: visibility.offerings }, ...filter] }),
  ]);
  return read.add(onOfferings, beyond);
}

/** How many offering users match `filter` among those the viewer sees. */
export function countVisible(ctx: Context, filter: OfferingUserWhere[], visibility: OfferingUserVisibility): Promise<number> {
  return visibleTotal(ctx, filter, visibility, {
    tallies: (where) => sumTallies(ctx.db, OFFERING_USER_TALLIES, where),
    rows: (where) => count(ctx.db, "offeringUser", where),
    add: (a, b) => a + b,
  });
}

/** How many offering users there are per offering and state. */
export type CountsByOfferingAndState = Map<string, Map<OfferingUserState, number>>;

const addCounts = (into: CountsByOfferingAndState, offeringId: string, state: OfferingUserState, count: number) => {
  const counts = into.get(offeringId) ?? new Map<OfferingUserState, number>();
  counts.set(state, (counts.get(state) ?? 0) + count);
  return into.set(offeringId, counts);
};

/** How many offering users match `filter` among those the viewer sees, per offering and state (those with any). */
export function countVisibleByOfferingAndState(
  ctx: Context,
  filter: OfferingUserWhere[],
  visibility: OfferingUserVisibility,
): Promise<CountsByOfferingAndState> {
  return visibleTotal<CountsByOfferingAndState>(ctx, filter, visibility, {
    tallies: async (where) => {
      const groups = await sumTalliesBy(ctx.db, OFFERING_USER_TALLIES, where, ["offeringId", "state"]);
      return groups.reduce((counts, group) => addCounts(counts, group.offeringId, group.state, group.total), new Map());
    },
    rows: async (where) => {
      const groups = await ctx.db.offeringUser.groupBy({ by: ["offeringId", "state"], where, _count: { _all: true } });
      return groups.reduce((counts, group) => addCounts(counts, group.offeringId, group.state, group._count._all), new Map());
    },
    add: (a, b) => {
      for (const [offeringId, counts] of b) for (const [state, count] of counts) addCounts(a, offeringId, state, count);
      return a;
    },
  });
}
