import type { Context } from "../context.ts";
import type { OfferingUserState, Prisma, PrismaClient } from "../generated/prisma/client.ts";
import type { OfferingUserVisibility } from "./visibility.ts";

type OfferingUserWhere = Prisma.OfferingUserWhereInput;
type TallyWhere = Prisma.OfferingUserTallyWhereInput;

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

interface PlainFilter<T> {
  equals?: T;
  in?: T[];
  notIn?: T[];
  not?: T;
}

/** A scalar condition on plain values (no field references, no nested filters), for another model; null otherwise. */
function plainCondition<T extends string>(
  filter: T | { equals?: T | object; in?: T[] | object; notIn?: T[] | object; not?: T | object; mode?: unknown },
): T | PlainFilter<T> | null {
  if (typeof filter === "string") return filter;
  const { equals, in: among, notIn, not, ...rest } = filter;
  const plain =
    Object.values(rest).every((value) => value === undefined) &&
    (equals === undefined || typeof equals === "string") &&
    (among === undefined || Array.isArray(among)) &&
    (notIn === undefined || Array.isArray(notIn)) &&
    (not === undefined || typeof not === "string");
  if (!plain) return null;
  return { equals, in: among, notIn, not };
}

/**
 * `where` as a condition on the tallies, when it asks only about the offering and the state (conditions on the
 * offering itself are resolved to offering ids); null when it asks about anything else (the user, the username…).
 */
export async function asTallyWhere(ctx: Context, where: OfferingUserWhere): Promise<TallyWhere | null> {
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
export async function tallied(ctx: Context, where: TallyWhere): Promise<number> {
  const { _sum } = await ctx.db.offeringUserTally.aggregate({ where, _sum: { delta: true } });
  return _sum.delta ?? 0;
}

/**
 * How many offering users match `filter` among those the viewer sees. The whole offerings the viewer sees are read from the tallies when the filter asks only about offerings and
 * states; the single records they see beyond those are counted. Anything else is counted row by row.
 */
export async function countVisible(
  ctx: Context,
  filter: OfferingUserWhere[],
  visibility: OfferingUserVisibility,
): Promise<number> {
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

/**
 * Folds into one row the tallies of each offering and state that has more than one, one of them newer than `after`, in
 * one statement: the rows it deletes are the rows it sums, so a count read before or after it, or a change written
 * meanwhile, sees the same totals. A group already folded is never rewritten.
 */
export async function foldTallies(db: PrismaClient, after = 0n): Promise<number> {
  return db.$executeRaw`
    WITH recent AS (SELECT DISTINCT "offering_id", "state" FROM "offering_user_tallies" WHERE "id" > ${after}),
    touched AS (
      SELECT t."offering_id", t."state" FROM "offering_user_tallies" AS t JOIN recent USING ("offering_id", "state")
      GROUP BY t."offering_id", t."state" HAVING count(*) > 1
    ),
    folded AS (
      DELETE FROM "offering_user_tallies" AS t USING touched
      WHERE t."offering_id" = touched."offering_id" AND t."state" = touched."state"
      RETURNING t."offering_id", t."state", t."delta"
    )
    INSERT INTO "offering_user_tallies" ("offering_id", "state", "delta")
    SELECT "offering_id", "state", sum("delta") FROM folded GROUP BY "offering_id", "state" HAVING sum("delta") <> 0`;
}

/**
 * Folds the tallies written since the last fold every `intervalMs` (a quiet table is left alone); `close` waits for a
 * fold under way. A row whose transaction commits during a fold may be left as it is until its group changes again:
 * the totals are right either way.
 */
export function foldTalliesEvery(db: PrismaClient, intervalMs: number, onError: (error: unknown) => void): { close(): Promise<void> } {
  const newestId = async () => (await db.offeringUserTally.findFirst({ orderBy: { id: "desc" }, select: { id: true } }))?.id ?? 0n;
  let foldedUpTo = -1n;
  let running: Promise<void> | undefined;
  const fold = async () => {
    if ((await newestId()) === foldedUpTo) return;
    await foldTallies(db, foldedUpTo < 0n ? 0n : foldedUpTo);
    foldedUpTo = await newestId();
  };
  const timer = setInterval(() => {
    running ??= fold()
      .catch(onError)
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
