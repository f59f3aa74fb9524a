import type { EventSpec, RoleChange } from "../events/spec.ts";
import type { ScopeType } from "../auth/access.ts";
import { Role } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { OfferingUserState, OrderState, OrderType, Prisma, ResourceState } from "../generated/prisma/client.ts";
import { type AccessPair, ALLOCATIONS, CONNECTING_GRANTS, pairKey, TAKEN_UP, unexpired } from "./allocated-resources.ts";
import { advisoryLock } from "../platform/database/locks.ts";
import { swapFromObserved } from "../platform/state-machine.ts";
import type { Outbox, Tx } from "../platform/database/transaction.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import { consentStatus, hasConsent } from "../terms-of-service/consent-status.ts";
import { describe, OFFERING_USER_CORE, type OfferingUserCore, recordOfferingUserChange } from "./changes.ts";
import { stateLabel } from "./states.ts";
import { INTERNAL_OFFERING_USER_TRANSITIONS } from "./transitions.ts";
import { findMany, findUnique } from "../platform/reads/sql/find.ts";

/**
 * Offering users follow allocations (spec 3.2, Waldur §2.6): a user connected to an allocation (ALLOCATIONS) of an
 * offering that allows offering users gets one requested; losing the last connection requests its deletion when
 * the offering opts in with `offering_user_auto_deletion`; regaining access restores it. Everything runs in the
 * caller's transaction, so the change that moved access and the offering-user changes commit together.
 */


type AccessTransition = "restore" | "recreate" | "access_lost" | "access_lost_unprovisioned";

/** The internal transitions tried, in order, when the user has access and when the user has lost it. */
const FOLLOWS_ACCESS: Record<"granted" | "lost", readonly AccessTransition[]> = {
  granted: ["restore", "recreate"],
  lost: ["access_lost", "access_lost_unprovisioned"],
};

/** What a transition writes besides the state: a recreated account gets a fresh username from the hosting site. */
const RESETS: Partial<Record<AccessTransition, Prisma.OfferingUserUpdateManyMutationInput>> = {
  recreate: { username: null },
};

const CLEARED_COMMENTS = { serviceProviderComment: "", serviceProviderCommentUrl: "" };

/** The consumer customer whose resources a role change can connect or disconnect, and which resources those are. */
const REACHED_BY: Partial<
  Record<ScopeType, (tx: Tx, scopeId: string, role: string) => Promise<{ customerId: string; resources: Prisma.ResourceWhereInput } | null>>
> = {
  PROJECT: async (tx, scopeId) => {
    const project = await findUnique(tx, "project", { where: { id: scopeId }, select: { customerId: true } });
    return project && { customerId: project.customerId, resources: { projectId: scopeId } };
  },
  CUSTOMER: async (_tx, scopeId, role) =>
    role === Role.CUSTOMER_OWNER ? { customerId: scopeId, resources: { project: { customerId: scopeId } } } : null,
};

const UPDATED = "marketplace_offering_user_updated";

const option = (pluginOptions: Prisma.JsonValue, name: string) =>
  (pluginOptions as Record<string, unknown> | null)?.[name] === true;

/** A concurrent transaction that changed the offering user first; the change it made stands. */
class ConcurrentChange extends Error {}

/**
 * Brings the offering users of `pairs` in line with the users' access. Call it inside the transaction of the
 * change that may alter access; subscribers hear of each offering-user change after that transaction commits.
 */
export async function reconcileAccess(ctx: Context, tx: Tx, outbox: Outbox<Topics>, pairs: AccessPair[]) {
  const unique = [...new Map(pairs.map((pair) => [pairKey(pair), pair])).values()];
  if (!unique.length) return;
  const offerings = new Map(
    (
      await findMany(tx, "offering", {
        where: { id: { in: [...new Set(unique.map((p) => p.offeringId))] } },
        select: { id: true, name: true, customerId: true, pluginOptions: true },
      })
    )
      .filter((o) => option(o.pluginOptions, "service_provider_can_create_offering_user"))
      .map((o) => [o.id, o]),
  );
  const followed = unique.filter((pair) => offerings.has(pair.offeringId)).sort((a, b) => pairKey(a).localeCompare(pairKey(b)));
  if (!followed.length) return;
  await advisoryLock(tx, followed.map(pairLock));

  const [withAccess, existing] = await Promise.all([
    pairsWithAccess(ctx, tx, followed),
    findMany(tx, "offeringUser", { where: { OR: followed }, select: OFFERING_USER_CORE }),
  ]);
  const offeringUsers = new Map(existing.map((ou) => [pairKey(ou), ou as OfferingUserCore]));

  const toCreate = followed.filter((pair) => withAccess.has(pairKey(pair)) && !offeringUsers.has(pairKey(pair)));
  await requestOfferingUsers(ctx, tx, outbox, await consenting(ctx, tx, toCreate), offerings);

  for (const ou of offeringUsers.values()) {
    const access = withAccess.has(pairKey(ou)) ? "granted" : "lost";
    if (access === "lost" && !option(offerings.get(ou.offeringId)!.pluginOptions, "offering_user_auto_deletion")) continue;
    const transition = FOLLOWS_ACCESS[access].find((name) => fromStates(name).includes(ou.state));
    if (transition) await applyTransition(ctx, tx, outbox, ou, transition);
  }
}

/** The events that carry a `roleChange`, which `followRoleChanges` may write after. */
export const ROLE_CHANGE_EVENTS: ReadonlySet<string> = new Set(["role_granted", "role_revoked"]);

/**
 * Follows every recorded event: after a role given or ended (`roleChange`), the users it can connect or disconnect —
 * the grantee, against every offering reached through the scope — in the same transaction.
 */
export async function followRoleChanges(ctx: Context, tx: Tx, outbox: Outbox<Topics>, { roleChange }: EventSpec) {
  if (roleChange) await reconcileRoleChange(ctx, tx, outbox, roleChange);
}

async function reconcileRoleChange(ctx: Context, tx: Tx, outbox: Outbox<Topics>, change: RoleChange) {
  const reached = await REACHED_BY[change.scopeType]?.(tx, change.scopeId, change.role);
  if (!reached) return;
  await advisoryLock(tx, [customerLock(reached.customerId)]);
  const offerings = await findMany(tx, "resource", { where: reached.resources, distinct: ["offeringId"], select: { offeringId: true } });
  await reconcileAccess(ctx, tx, outbox, offerings.map(({ offeringId }) => ({ userId: change.userId, offeringId })));
}

/** Everyone connected to a resource's project (its members and its customer's owners), against its offering. */
export async function reconcileResourceAccess(ctx: Context, tx: Tx, outbox: Outbox<Topics>, resource: { projectId: string; offeringId: string }) {
  const project = await findUnique(tx, "project", { where: { id: resource.projectId }, select: { customerId: true } });
  if (!project) return;
  await advisoryLock(tx, [customerLock(project.customerId)]);
  const grants = await findMany(tx, "roleGrant", {
    where: {
      AND: [
        unexpired(ctx.now()),
        { OR: [{ scopeType: "PROJECT", scopeId: resource.projectId }, { scopeType: "CUSTOMER", role: Role.CUSTOMER_OWNER, scopeId: project.customerId }] },
      ],
    },
    distinct: ["userId"],
    select: { userId: true },
  });
  await reconcileAccess(ctx, tx, outbox, grants.map(({ userId }) => ({ userId, offeringId: resource.offeringId })));
}

/** A Create order reaching the consumer's approval (or taken up by the provider) makes its resource an allocation. */
export async function reconcileOrderReview(
  ctx: Context,
  tx: Tx,
  outbox: Outbox<Topics>,
  order: { type: OrderType; resourceId: string | null; projectId: string; offeringId: string },
  from: OrderState,
  to: OrderState,
) {
  if (order.type !== "CREATE" || !order.resourceId || TAKEN_UP.includes(from) || !TAKEN_UP.includes(to)) return;
  await reconcileResourceAccess(ctx, tx, outbox, order);
}

/** A resource moving into or out of Terminated connects or disconnects the users of its project. */
export async function reconcileResourceStateChange(
  ctx: Context,
  tx: Tx,
  outbox: Outbox<Topics>,
  resource: { projectId: string; offeringId: string },
  from: ResourceState,
  to: ResourceState,
) {
  if ((from === "TERMINATED") === (to === "TERMINATED")) return;
  await reconcileResourceAccess(ctx, tx, outbox, resource);
}

const fromStates = (name: AccessTransition): readonly OfferingUserState[] => INTERNAL_OFFERING_USER_TRANSITIONS[name].from;

/*
 * Advisory locks (src/platform/database/locks.ts), so two concurrent changes cannot both miss each other:
 * - per consumer customer, taken before the users or offerings to reconcile are listed (a new grant and a new
 *   resource of the same project);
 * - per (user, offering), taken before access is computed (changes under different customers reaching one pair).
 */
const customerLock = (customerId: string) => `offering-users:customer:${customerId}`;
const pairLock = (pair: AccessPair) => `offering-users:pair:${pairKey(pair)}`;

/** The pairs whose user is connected to an allocation of the offering, in two queries per batch. */
async function pairsWithAccess(ctx: Context, tx: Tx, pairs: AccessPair[]): Promise<Set<string>> {
  const grants = await findMany(tx, "roleGrant", {
    where: { AND: [unexpired(ctx.now()), { userId: { in: [...new Set(pairs.map((p) => p.userId))] } }, { OR: CONNECTING_GRANTS }] },
    select: { userId: true, scopeType: true, scopeId: true },
  });
  if (!grants.length) return new Set();
  const scopeIds = (type: ScopeType) => [...new Set(grants.filter((g) => g.scopeType === type).map((g) => g.scopeId))];
  const resources = await findMany(tx, "resource", {
    where: {
      AND: [
        ALLOCATIONS,
        { offeringId: { in: [...new Set(pairs.map((p) => p.offeringId))] } },
        { OR: [{ projectId: { in: scopeIds("PROJECT") } }, { project: { customerId: { in: scopeIds("CUSTOMER") } } }] },
      ],
    },
    distinct: ["offeringId", "projectId"],
    select: { offeringId: true, projectId: true, project: { select: { customerId: true } } },
  });
  const connections = new Set(grants.map((g) => `${g.userId}:${g.scopeType}:${g.scopeId}`));
  const connected = (pair: AccessPair) =>
    resources.some(
      (r) =>
        r.offeringId === pair.offeringId &&
        (connections.has(`${pair.userId}:PROJECT:${r.projectId}`) || connections.has(`${pair.userId}:CUSTOMER:${r.project.customerId}`)),
    );
  return new Set(pairs.filter(connected).map(pairKey));
}

/** With consent enforcement on, only users with a current consent to the offering's active terms (Waldur §3.3). */
async function consenting(ctx: Context, tx: Tx, pairs: AccessPair[]): Promise<AccessPair[]> {
  if (!ctx.config.enforceUserConsent || !pairs.length) return pairs;
  const [terms, consents] = await Promise.all([
    findMany(tx, "offeringTermsOfService", {
      where: { offeringId: { in: [...new Set(pairs.map((p) => p.offeringId))] }, isActive: true },
      select: { id: true, offeringId: true, version: true, requiresReconsent: true, gracePeriodDays: true, activatedAt: true, created: true },
    }),
    findMany(tx, "userOfferingConsent", { where: { OR: pairs }, select: { userId: true, offeringId: true, version: true, revocationDate: true } }),
  ]);
  const termsOf = new Map(terms.map((t) => [t.offeringId, t]));
  const consentOf = new Map(consents.map((c) => [pairKey(c), c]));
  return pairs.filter((pair) => {
    const active = termsOf.get(pair.offeringId);
    return !active || hasConsent(consentStatus(active, consentOf.get(pairKey(pair)), ctx.now()));
  });
}

type FollowedOffering = { id: string; name: string; customerId: string };

async function requestOfferingUsers(ctx: Context, tx: Tx, outbox: Outbox<Topics>, pairs: AccessPair[], offerings: Map<string, FollowedOffering>) {
  if (!pairs.length) return;
  const state: OfferingUserState = "CREATION_REQUESTED";
  // skipDuplicates: an offering user created meanwhile stays as it is, and the transaction is not aborted.
  const created = await tx.offeringUser.createManyAndReturn({
    data: pairs.map((pair) => ({ ...pair, state, created: ctx.now() })),
    skipDuplicates: true,
    // The record's copy of its user's username, written by the insert's trigger.
    select: { id: true, offeringId: true, userId: true, userUsername: true },
  });
  for (const row of created) {
    const offering = offerings.get(row.offeringId)!;
    const core: OfferingUserCore = {
      ...row, state, username: null, ...CLEARED_COMMENTS,
      offeringName: offering.name, customerId: offering.customerId,
    };
    await recordOfferingUserChange(ctx, tx, outbox, core, {
      eventType: "marketplace_offering_user_created",
      message: `Offering user ${describe(core)} has been created.`,
      previousState: null,
      state,
      context: { username: null, operation: "access_granted" },
    });
  }
}

async function applyTransition(ctx: Context, tx: Tx, outbox: Outbox<Topics>, ou: OfferingUserCore, name: AccessTransition) {
  const rule = INTERNAL_OFFERING_USER_TRANSITIONS[name];
  const effect: { clearsComments?: boolean } | undefined = "effect" in rule ? rule.effect : undefined;
  const data = { state: rule.to, ...(effect?.clearsComments ? CLEARED_COMMENTS : {}), ...RESETS[name] };
  const replaced = await swapFromObserved<OfferingUserState>(
    rule,
    ou.state,
    (from) => tx.offeringUser.updateMany({ where: { id: ou.id, state: from }, data }),
    async () => (await findUnique(tx, "offeringUser", { where: { id: ou.id }, select: { state: true } }))?.state ?? null,
    { invalid: () => new ConcurrentChange(), missing: () => new ConcurrentChange() },
  ).catch((error: unknown) => {
    if (error instanceof ConcurrentChange) return null;
    throw error;
  });
  if (!replaced) return;
  const usernameReset = "username" in data && ou.username !== null ? { old_username: ou.username, new_username: null } : {};
  await recordOfferingUserChange(ctx, tx, outbox, ou, {
    eventType: UPDATED,
    message: `Offering user ${describe(ou)} has been moved from ${stateLabel(replaced)} to ${stateLabel(rule.to)}.`,
    previousState: replaced,
    state: rule.to,
    context: { operation: name, ...usernameReset },
  });
}
