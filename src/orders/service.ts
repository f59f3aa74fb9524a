import type { EventType } from "../events/types.ts";
import { idSet } from "../platform/ids.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { Order, OrderState, Prisma } from "../generated/prisma/client.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { requireStaff, visibleOne } from "../directory/lookup.ts";
import { visibleEvents } from "../events/visibility.ts";
import { conflict, DomainError, ErrorCode, fieldError, notFound, wrongState } from "../platform/errors.ts";
import { canTransition, swapFromObserved, type TransitionRule } from "../platform/state-machine.ts";
import { maxLength } from "../platform/text.ts";
import { transact, type Tx } from "../platform/database/transaction.ts";
import { reconcileOrderReview } from "../offering-users/allocations.ts";
import { APPROVAL_DETAILS, nextState, waitsOf } from "./approval.ts";
import { describeOrder, followResource, ORDER_CORE, type OrderCore, recordOrderChange } from "./changes.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { ORDER_CONTRACT } from "./contract.ts";
import { TERMINAL_ORDER_STATES } from "./states.ts";
import { orderStateLabel } from "../resources/order-states.ts";
import { DELETABLE_ORDER_STATES, type OrderAction, orderRule, OrderTransitionError } from "./transitions.ts";
import { consumerScopes, providerScopes, scopesFor, visibleOrders } from "./visibility.ts";
import { count, findFirst, findMany, findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

/** The selection GraphQL asks for (plugin-prisma's queryFromInfo); services return rows shaped by it. */
export type OrderQuery = { select?: Prisma.OrderSelect; include?: Prisma.OrderInclude };

export async function listOrders(
  ctx: Context,
  args: ListRequest<typeof ORDER_CONTRACT>,
  query: OrderQuery = {},
): Promise<Connection<Order>> {
  return listPage(ctx.db, "order", ORDER_CONTRACT, { visible: await visibleOrders(ctx), request: args, query }, ctx);
}

/** The order `uuid`, read by `find` among those the viewer may see (404 otherwise). */
async function findVisible<T>(ctx: Context, uuid: string, find: (where: Prisma.OrderWhereInput) => Promise<T | null>) {
  const visible = await visibleOrders(ctx);
  return visibleOne(uuid, (id) => find({ AND: [{ id }, visible] }));
}

export async function getOrder(ctx: Context, uuid: string, query: OrderQuery = {}) {
  return findVisible(ctx, uuid, (where) => findFirst(ctx.db, "order", { ...query, where }));
}

/** Which of `ids` the viewer may see as orders (getOrder's rule). */
export const visibleOrderIds = async (ctx: Context, ids: string[]) =>
  idSet(await findMany(ctx.db, "order", { where: { AND: [{ id: { in: ids } }, await visibleOrders(ctx)] }, select: { id: true } }));

const loadVisible = (ctx: Context, uuid: string) => findVisible(ctx, uuid, (where) => findFirst(ctx.db, "order", { select: ORDER_CORE, where }));


const validStates = (from: readonly OrderState[]) => `Valid states for operation: ${from.map(orderStateLabel).join(", ")}.`;

/** Waldur's 409 for an action from the wrong state; `current` is the state the order was found in. */
export const wrongOrderState = (current: OrderState, from: readonly OrderState[]) => wrongState(OrderTransitionError, validStates(from), current, from);

const unsupportedType = (type: string) =>
  new DomainError(ErrorCode.METHOD_NOT_ALLOWED, `The order's offering with ${type} type does not support this action`);

export interface OrderActionInput {
  errorMessage?: string | null;
  errorTraceback?: string | null;
  /** approve_by_provider: a dictionary merged into the order's attributes. */
  attributes?: unknown;
}

function dictionary(field: string, value: unknown) {
  if (value == null) return null;
  if (typeof value !== "object" || Array.isArray(value)) throw fieldError(field, "Expected a dictionary of items.");
  return value;
}

/** The order after a change, when the answer shows it (`query`): read with the change's `tx`, before the commit. */
const orderAfter = (tx: Tx, id: string, query: OrderQuery | undefined) => (query ? findUniqueOrThrow(tx, "order", { ...query, where: { id } }) : undefined);

/**
 * Runs one action of ORDER_TRANSITIONS: 404 invisible, 403 not permitted, 409 wrong state, 405 wrong offering type.
 * With `query`, the answer carries the order as it became (`order`).
 */
export async function transitionOrder(ctx: Context, uuid: string, action: OrderAction, input: OrderActionInput = {}, query?: OrderQuery) {
  const attributes = dictionary("attributes", input.attributes);
  const order = await loadVisible(ctx, uuid);
  const rule = orderRule(action);
  const effect = rule.effect!;
  await ctx.access.require(effect.permission, scopesFor(effect.side, order));
  if (!canTransition(rule, order.state)) throw wrongOrderState(order.state, rule.from);
  if (effect.offeringTypes && !effect.offeringTypes.includes(order.offering.type)) throw unsupportedType(order.offering.type);
  const to = effect.approves ? nextState(await waitsOf(ctx, order, order.createdById), effect.approves) : rule.to;
  const now = ctx.now();
  const data: Prisma.OrderUncheckedUpdateManyInput = {
    state: to,
    completedAt: TERMINAL_ORDER_STATES.includes(to) ? now : null,
    ...(effect.reviews === "consumer" ? { consumerReviewedById: ctx.viewer!.id, consumerReviewedAt: now } : {}),
    ...(effect.reviews === "provider" ? { providerReviewedById: ctx.viewer!.id, providerReviewedAt: now } : {}),
    ...(effect.storesError ? { errorMessage: input.errorMessage ?? "", errorTraceback: input.errorTraceback ?? "" } : {}),
    ...(effect.approves === "provider" && attributes
      ? { attributes: { ...(order.attributes as Record<string, unknown>), ...attributes } as Prisma.InputJsonObject }
      : {}),
  };
  const applied: TransitionRule<OrderState> = { from: rule.from, to };
  const changed = await transact(ctx, async (tx, outbox) => {
    const replaced = await swapFromObserved(
      applied,
      order.state,
      (from) => tx.order.updateMany({ where: { id: order.id, state: from }, data }),
      async () => (await findUnique(tx, "order", { where: { id: order.id }, select: { state: true } }))?.state ?? null,
      { invalid: (current) => wrongOrderState(current, rule.from), missing: notFound },
    );
    await recordOrderChange(ctx, tx, outbox, order, {
      eventType: effect.eventType,
      message: `${describeOrder(order)} has been moved from ${orderStateLabel(replaced)} to ${orderStateLabel(to)}.`,
      previousState: replaced,
      state: to,
      context: { action, ...(effect.storesError ? { error_message: data.errorMessage } : {}) },
    });
    await followResource(ctx, tx, outbox, order, to);
    await reconcileOrderReview(ctx, tx, outbox, order, replaced, to);
    return orderAfter(tx, order.id, query);
  });
  return { orderId: order.id, state: to, detail: APPROVAL_DETAILS[to] ?? "", order: changed };
}

export async function setOrderBackendId(ctx: Context, uuid: string, backendId: string, query?: OrderQuery) {
  const order = await loadVisible(ctx, uuid);
  await ctx.access.require(Permission.SET_RESOURCE_BACKEND_ID, providerScopes(order));
  const value = maxLength("backendId", backendId, 255);
  if (value === order.backendId) return { orderId: order.id, changed: false };
  const changed = await transact(ctx, async (tx, outbox) => {
    await tx.order.update({ where: { id: order.id }, data: { backendId: value } });
    await recordOrderChange(ctx, tx, outbox, order, {
      eventType: "marketplace_order_updated",
      message: `Backend id of ${describeOrder(order)} has been changed from "${order.backendId}" to "${value}".`,
      previousState: order.state,
      state: order.state,
      context: { old_backend_id: order.backendId, new_backend_id: value },
    });
    return orderAfter(tx, order.id, query);
  });
  return { orderId: order.id, changed: true, order: changed };
}

async function removeOrder(ctx: Context, order: OrderCore, eventType: EventType, verb: string, onlyFrom?: readonly OrderState[]) {
  await transact(ctx, async (tx, outbox) => {
    const { count } = await tx.order.deleteMany({ where: { id: order.id, ...(onlyFrom ? { state: { in: [...onlyFrom] } } : {}) } });
    if (count === 0 && !onlyFrom) throw notFound();
    if (count === 0 && onlyFrom) {
      // Another request moved or removed the order since it was read; one that removed it leaves no state to name.
      const now = await findUnique(tx, "order", { where: { id: order.id }, select: { state: true } });
      throw now ? wrongOrderState(now.state, onlyFrom) : conflict(validStates(onlyFrom));
    }
    await recordOrderChange(ctx, tx, outbox, order, {
      eventType,
      message: `${describeOrder(order)} has been ${verb}.`,
      previousState: order.state,
      state: null,
    });
  });
  return order.id;
}

/** DELETE: the consumer withdraws an order not yet approved by the provider. */
export async function deleteOrder(ctx: Context, uuid: string) {
  const order = await loadVisible(ctx, uuid);
  await ctx.access.require(Permission.DESTROY_ORDER, consumerScopes(order));
  if (!DELETABLE_ORDER_STATES.includes(order.state)) throw wrongOrderState(order.state, DELETABLE_ORDER_STATES);
  return removeOrder(ctx, order, "marketplace_order_deleted", "deleted", DELETABLE_ORDER_STATES);
}

/** unlink/: staff remove an order in any state, leaving its resource alone. */
export async function unlinkOrder(ctx: Context, uuid: string) {
  const order = await loadVisible(ctx, uuid);
  requireStaff(ctx);
  return removeOrder(ctx, order, "marketplace_order_unlinked", "unlinked");
}

/**
 * A subscriber hears of a change when it may see the order, or, once it is deleted, its event. Visibility is asked
 * first: the common answer, in one query.
 */
export async function canSeeOrderChange(ctx: Context, change: { orderId: string; eventId: number }) {
  if (await count(ctx.db, "order", { AND: [{ id: change.orderId }, await visibleOrders(ctx)] })) return true;
  if (await count(ctx.db, "order", { id: change.orderId })) return false;
  return (await count(ctx.db, "event", { AND: [{ id: change.eventId }, await visibleEvents(ctx)] })) > 0;
}
