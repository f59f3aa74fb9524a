import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { OfferingUser, OfferingUserState, Prisma } from "../generated/prisma/client.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { forbidden, notFound } from "../platform/errors.ts";
import { idSet, parseUuid, toHex } from "../platform/ids.ts";
import { canTransition, swapFromObserved, type TransitionRule } from "../platform/state-machine.ts";
import { sanitizeComment, validUrl, maxLength } from "../platform/text.ts";
import type { Db } from "../platform/database/connect.ts";
import { transact, type Tx } from "../platform/database/transaction.ts";
import { count, findFirst, findMany, findUnique } from "../platform/reads/sql/find.ts";
import {
  describe,
  OFFERING_USER_CORE,
  providerScopesOf,
  type OfferingUserChange,
  type OfferingUserCore,
  recordOfferingUserChange,
  recordOfferingUserUpdate,
} from "./changes.ts";
import { type SwapData, swapStatement } from "./swap-statement.ts";
import { changedComments, commentData, type CommentInput } from "./comments.ts";
import { changeCommitsAlone } from "../events/record.ts";
import { type FilterValues } from "../collections/contract.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { OFFERING_USER_CONTRACT } from "./contract.ts";
import { stateLabel } from "./states.ts";
import { holdsSelection } from "../platform/reads/held-selection.ts";
import {
  COMMENTS_FROZEN_IN,
  INTERNAL_OFFERING_USER_TRANSITIONS,
  invalidTransition,
  type OfferingUserOperation,
  ruleFor,
} from "./transitions.ts";
import { countVisible } from "./tallies.ts";
import { offeringUserVisibility, visibleOfferingUsers } from "./visibility.ts";
import { visibleEvents } from "../events/visibility.ts";

export type { CommentInput } from "./comments.ts";

/** The selection GraphQL asks for (plugin-prisma's queryFromInfo); services return rows shaped by it. */
export type OfferingUserQuery = { select?: Prisma.OfferingUserSelect; include?: Prisma.OfferingUserInclude };

const UPDATED = "marketplace_offering_user_updated";

export async function listOfferingUsers(
  ctx: Context,
  args: ListRequest<typeof OFFERING_USER_CONTRACT>,
  query: OfferingUserQuery = {},
): Promise<Connection<OfferingUser>> {
  const visibility = offeringUserVisibility(ctx);
  const count = async (conditions: Prisma.OfferingUserWhereInput[]) => countVisible(ctx, conditions, await visibility);
  return listPage(ctx.db, "offeringUser", OFFERING_USER_CONTRACT, { visible: visibility.then(({ where }) => where), request: args, query, count }, ctx);
}

export type OfferingUserFilter = FilterValues<typeof OFFERING_USER_CONTRACT>;

/** Which offering users a list shows: those the viewer may see (`visibility`), under the filter (`conditions`). */
export async function listSelection(ctx: Context, filter: OfferingUserFilter | null | undefined) {
  const [visibility, conditions] = await Promise.all([offeringUserVisibility(ctx), OFFERING_USER_CONTRACT.where(filter, ctx)]);
  return { visibility, conditions };
}

/** The offering user `uuid`, read by `find` among those the viewer may see (404 otherwise). */
async function findVisible<T>(ctx: Context, uuid: string, find: (where: Prisma.OfferingUserWhereInput) => Promise<T | null>) {
  const id = parseUuid(uuid);
  if (!id) throw notFound();
  const row = await find({ AND: [{ id }, await visibleOfferingUsers(ctx)] });
  if (!row) throw notFound();
  return row;
}

export async function getOfferingUser(ctx: Context, uuid: string, query: OfferingUserQuery = {}) {
  return findVisible(ctx, uuid, (where) => findFirst(ctx.db, "offeringUser", { where, ...query }));
}

/** Which of `ids` the viewer may see as offering users (getOfferingUser's rule). */
export const visibleOfferingUserIds = async (ctx: Context, ids: string[]) =>
  idSet(await findMany(ctx.db, "offeringUser", { where: { AND: [{ id: { in: ids } }, await visibleOfferingUsers(ctx)] }, select: { id: true } }));

/** The core a change needs and every field of the record's own, so that a transition can answer without a reload. */
const WHOLE_RECORD = {
  ...OFFERING_USER_CORE,
  isRestricted: true,
  backendMetadata: true,
  userFirstName: true,
  userLastName: true,
  userEmail: true,
  hasConsent: true,
  customerName: true,
  offeringHasActiveTerms: true,
  created: true,
  modified: true,
  stateChangedAt: true,
} as const;

async function loadVisible(ctx: Context, uuid: string): Promise<OfferingUserCore> {
  return findVisible(ctx, uuid, (where) => findFirst(ctx.db, "offeringUser", { select: OFFERING_USER_CORE, where }));
}

/**
 * The record after a change, read inside its transaction (`tx`) so that the answer needs no read after the commit,
 * which a lost connection could fail after the change was made; a concurrent deletion makes it a 404, not a 500.
 */
async function reload(db: Tx | Db, id: string, query: OfferingUserQuery) {
  const row = await findUnique(db, "offeringUser", { where: { id }, ...query });
  if (!row) throw notFound();
  return row;
}


type WholeRecord = NonNullable<Awaited<ReturnType<typeof findWhole>>>;

const findWhole = (ctx: Context, uuid: string) => findVisible(ctx, uuid, (where) => findFirst(ctx.db, "offeringUser", { select: WHOLE_RECORD, where }));

/**
 * Applies `rule` to the record as compare-and-swap (swapFromObserved), writing `data` and the event `change(from)`
 * describes in one statement. An answer of the record's own fields (REST's) is the row as read and changed: no
 * reload, and then that statement is the whole write, which commits alone unless something follows the event in
 * its transaction. With `seen.username`, the swap also requires the username read.
 */
function swapWithEvent(
  ctx: Context,
  ou: WholeRecord,
  rule: TransitionRule<OfferingUserState, unknown>,
  data: SwapData,
  change: (from: OfferingUserState) => OfferingUserChange,
  query: OfferingUserQuery,
  seen: { username?: string | null } = {},
) {
  const reloads = !holdsSelection(ou, query);
  return transact(
    ctx,
    async (tx, outbox) => {
      await swapFromObserved(
        rule,
        ou.state,
        (from) => recordOfferingUserUpdate(ctx, tx, outbox, ou, swapStatement(ou.id, from, data, seen), change(from)),
        async () => (await findUnique(tx, "offeringUser", { where: { id: ou.id }, select: { state: true } }))?.state ?? null,
        { invalid: (current) => invalidTransition(rule, current), missing: notFound },
      );
      // The trigger that keeps stateChangedAt takes the write's `modified` when the state changes.
      const stateChangedAt = data.state && data.state !== ou.state ? data.modified : ou.stateChangedAt;
      return reloads ? reload(tx, ou.id, query) : { ...ou, ...data, state: rule.to, stateChangedAt };
    },
    { oneStatement: !reloads && changeCommitsAlone(ctx, change(ou.state).eventType) },
  );
}

export async function transitionOfferingUser(
  ctx: Context,
  uuid: string,
  operation: OfferingUserOperation,
  input: CommentInput = {},
  query: OfferingUserQuery = {},
) {
  const ou = await findWhole(ctx, uuid);
  await ctx.access.require(Permission.UPDATE_OFFERING_USER, providerScopesOf(ou));
  const rule = ruleFor(operation);
  if (!canTransition(rule, ou.state)) throw invalidTransition(rule, ou.state);
  const data = { state: rule.to, ...commentData(rule.effect, input), modified: ctx.now() };
  const change = (from: OfferingUserState): OfferingUserChange => ({
    eventType: rule.effect?.eventType ?? UPDATED,
    message: `Offering user ${describe(ou)} has been moved from ${stateLabel(from)} to ${stateLabel(rule.to)}.`,
    previousState: from,
    state: rule.to,
    context: { operation, ...changedComments(ou, data) },
  });
  return swapWithEvent(ctx, ou, rule, data, change, query);
}

export async function updateOfferingUserComments(
  ctx: Context,
  uuid: string,
  input: { serviceProviderComment?: string | null; serviceProviderCommentUrl?: string | null },
  query: OfferingUserQuery = {},
) {
  const ou = await loadVisible(ctx, uuid);
  await ctx.access.require(Permission.UPDATE_OFFERING_USER, providerScopesOf(ou));
  const frozen = () => forbidden(`Cannot update comments for offering user in state: ${stateLabel("DELETED")}`);
  if (COMMENTS_FROZEN_IN.includes(ou.state)) throw frozen();
  const data = {
    ...(input.serviceProviderComment != null ? { serviceProviderComment: sanitizeComment(input.serviceProviderComment) } : {}),
    ...(input.serviceProviderCommentUrl != null
      ? { serviceProviderCommentUrl: validUrl("serviceProviderCommentUrl", input.serviceProviderCommentUrl) }
      : {}),
  };
  const changes = changedComments(ou, data);
  if (!Object.keys(changes).length) return reload(ctx.db, ou.id, query);
  return transact(ctx, async (tx, outbox) => {
    const { count } = await tx.offeringUser.updateMany({
      where: { id: ou.id, state: { notIn: [...COMMENTS_FROZEN_IN] } },
      data,
    });
    if (count === 0) throw frozen();
    await recordOfferingUserChange(ctx, tx, outbox, ou, {
      eventType: UPDATED,
      message: `Comments of offering user ${describe(ou)} have been updated.`,
      previousState: ou.state,
      state: ou.state,
      context: changes,
    });
    return reload(tx, ou.id, query);
  });
}

/** PUT/PATCH: the hosting site pushes back the local username; a new one finishes account creation. */
export async function updateOfferingUser(
  ctx: Context,
  uuid: string,
  input: { username?: string | null },
  query: OfferingUserQuery = {},
) {
  const ou = await findWhole(ctx, uuid);
  await ctx.access.require(Permission.UPDATE_OFFERING_USER, providerScopesOf(ou));
  if (input.username === undefined || input.username === ou.username) return reload(ctx.db, ou.id, query);
  const username = input.username === null ? null : maxLength("username", input.username, 100);
  const assigned = INTERNAL_OFFERING_USER_TRANSITIONS.username_assigned;
  const finishes = !!username && canTransition(assigned, ou.state);
  const rule: TransitionRule<OfferingUserState, unknown> = finishes ? assigned : { from: [ou.state], to: ou.state };
  const data = { username, ...(finishes ? { state: assigned.to, ...commentData(assigned.effect, {}) } : {}), modified: ctx.now() };
  const change = (from: OfferingUserState): OfferingUserChange => ({
    eventType: UPDATED,
    message: `Username of offering user ${describe(ou)} has been changed from "${ou.username ?? ""}" to "${username ?? ""}".`,
    previousState: from,
    state: rule.to,
    context: { old_username: ou.username, new_username: username },
  });
  return swapWithEvent(ctx, ou, rule, data, change, query, { username: ou.username });
}

export async function deleteOfferingUser(ctx: Context, uuid: string): Promise<string> {
  const ou = await loadVisible(ctx, uuid);
  await ctx.access.require(
    Permission.DELETE_OFFERING_USER,
    providerScopesOf(ou),
    "You do not have permission to delete this user.",
  );
  await transact(ctx, async (tx, outbox) => {
    const { count } = await tx.offeringUser.deleteMany({ where: { id: ou.id } });
    if (count === 0) throw notFound();
    await recordOfferingUserChange(ctx, tx, outbox, ou, {
      eventType: "marketplace_offering_user_deleted",
      message: `Offering user ${describe(ou)} has been deleted.`,
      previousState: ou.state,
      state: ou.state,
    });
  });
  return toHex(ou.id);
}

/**
 * A subscriber hears of a change when it may see the record, or, once the record is deleted, its event. Visibility
 * is asked first: the common answer, in one query.
 */
export async function canSeeChange(ctx: Context, change: { offeringUserId: string; eventId: number }) {
  if (await count(ctx.db, "offeringUser", { AND: [{ id: change.offeringUserId }, await visibleOfferingUsers(ctx)] })) return true;
  if (await count(ctx.db, "offeringUser", { id: change.offeringUserId })) return false;
  return (await count(ctx.db, "event", { AND: [{ id: change.eventId }, await visibleEvents(ctx)] })) > 0;
}
