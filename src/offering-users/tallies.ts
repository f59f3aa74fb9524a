import type { Context } from "../context.ts";
import type { OfferingUserState, Prisma } from "../generated/prisma/client.ts";
import { plainCondition, type TallyTable } from "../platform/tallies.ts";
import type { OfferingUserVisibility } from "./visibility.ts";

type OfferingUserWhere = Prisma.OfferingUserWhereInput;
type TallyWhere = Prisma.OfferingUserTallyWhereInput;

/** How many offering users each offering has in each state (the migration's trigger on offering_users writes them). */
export const OFFERING_USER_TALLIES: TallyTable = { table: "offering_user_tallies", keys: ["offering_id", "state"] };

const listOf = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every part of `where`, or null if one of them is null. */
async function allOf(ctx: Context, parts: OfferingUserWhere[]): Promise<TallyWhere[] | null> {
  const converted = await Promise.all(parts.map((part) => asTallyWhere(ctx, part)));
  return converted.every((part): part is TallyWhere => part !== null) ? converted : null;
}

async function offeringIdsWhere(ctx: Context, where: Prisma.OfferingWhereInput): Promise<string[]> {
  return (await ctx.db.offering.findMany({ where, select: { id: true } })).map((offering) => offering.id);
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
 * `where` as a condition on the tallies, when it asks only about the offering and the state (conditions on the
 * offering itself are resolved to offering ids); null when it asks about anything else (the user, the username…).
 */
async function asTallyWhere(ctx: Context, where: OfferingUserWhere): Promise<TallyWhere | null> {
  const { AND, OR, NOT, state, offeringId, offering, ...rest } = where;
  if (Object.values(rest).some((value) => value !== undefined)) return null;
  const [and, or, not, onOffering] = await Promise.all([
    AND === undefined ? [] : allOf(ctx, listOf(AND)),
    OR === undefined ? undefined : allOf(ctx, OR),
    NOT === undefined ? [] : allOf(ctx, listOf(NOT)),
    offering === undefined ? undefined : offeringCondition(ctx, offering),
  ]);
  const onOfferingId = offeringId === undefined ? undefined : plainCondition(offeringId);
  const onState = state === undefined ? undefined : plainCondition<OfferingUserState>(state);
  if (and === null || or === null || not === null || onOfferingId === null || onState === null) return null;
  return {
    AND: [...and, ...(onOffering ? [onOffering] : [])],
    ...(or ? { OR: or } : {}),
    ...(not.length ? { NOT: not } : {}),
    ...(onState === undefined ? {} : { state: onState }),
    ...(onOfferingId === undefined ? {} : { offeringId: onOfferingId }),
  };
}

/** How many offering users the tallies under `where` add up to. */
async function tallied(ctx: Context, where: TallyWhere): Promise<number> {
  const { _sum } = await ctx.db.offeringUserTally.aggregate({ where, _sum: { delta: true } });
  return _sum.delta ?? 0;
}

/**
 * How many offering users match `filter` among those the viewer sees. The whole offerings the viewer sees are read
 * from the tallies when the filter asks only about offerings and states; the single records they see beyond those are
 * counted. Anything else is counted row by row.
 */
export async function countVisible(ctx: Context, filter: OfferingUserWhere[], visibility: OfferingUserVisibility): Promise<number> {
  const countRows = (where: OfferingUserWhere[]) => ctx.db.offeringUser.count({ where: { AND: where } });
  const [byFilter, byOffering] = await Promise.all([
    asTallyWhere(ctx, { AND: filter }),
    visibility.all || !visibility.offerings ? undefined : asTallyWhere(ctx, visibility.offerings),
  ]);
  if (byFilter === null || byOffering === null) return countRows([visibility.where, ...filter]);
  if (visibility.all) return tallied(ctx, byFilter);
  const offerings = visibility.offerings;
  if (!offerings || !byOffering) return countRows([visibility.records, ...filter]);
  const [onOfferings, beyond] = await Promise.all([
    tallied(ctx, { AND: [byFilter, byOffering] }),
    countRows([visibility.records, { NOT: offerings }, ...filter]),
  ]);
  return onOfferings + beyond;
}
