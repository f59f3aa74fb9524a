import type { Context } from "../context.ts";
import type { OrderState, OrderType, Prisma } from "../generated/prisma/client.ts";
import { changeRecorder } from "../events/change-recorder.ts";
import { allocationEventParts } from "../events/record.ts";
import { toHex } from "../platform/ids.ts";
import type { Outbox, Tx } from "../platform/database/transaction.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import { describeResource, RESOURCE_CORE, type ResourceCore, recordResourceChange } from "../resources/changes.ts";
import { resourceStateLabel } from "../resources/states.ts";
import { reconcileResourceStateChange } from "../offering-users/allocations.ts";
import { orderTypeLabel } from "./states.ts";
import { orderStateLabel } from "../resources/order-states.ts";
import { RESOURCE_FOLLOWS_ORDER } from "./transitions.ts";
import { findUnique } from "../platform/reads/sql/find.ts";

/** What the order actions and their events need to know about an order. */
export const ORDER_CORE = {
  id: true,
  type: true,
  state: true,
  offeringId: true,
  projectId: true,
  resourceId: true,
  createdById: true,
  startDate: true,
  limits: true,
  attributes: true,
  backendId: true,
  offering: { select: { name: true, type: true, customerId: true, pluginOptions: true } },
  project: { select: { name: true, customerId: true } },
} as const;
export type OrderCore = Prisma.OrderGetPayload<{ select: typeof ORDER_CORE }>;

export const describeOrder = (o: OrderCore) => `${orderTypeLabel(o.type)} order ${toHex(o.id)} for offering ${o.offering.name}`;

const orderChanges = changeRecorder<OrderCore, OrderState | null>({
  label: orderStateLabel,
  context: (order) => ({
    order_uuid: toHex(order.id),
    order_type: orderTypeLabel(order.type),
    ...allocationEventParts(order).context,
    ...(order.resourceId ? { resource_uuid: toHex(order.resourceId) } : {}),
  }),
  scopes: (order) => [
    { type: "ORDER", id: order.id },
    ...(order.resourceId ? [{ type: "RESOURCE" as const, id: order.resourceId }] : []),
    ...allocationEventParts(order).scopes,
  ],
  notification: (order, { state, previousState }) => ({
    topic: "orderChanged",
    payload: {
      orderId: order.id,
      offeringId: order.offeringId,
      projectId: order.projectId,
      providerCustomerId: order.offering.customerId,
      consumerCustomerId: order.project.customerId,
      state,
      previousState,
    },
  }),
});

/** Writes the audit event of an order change in the caller's transaction and queues its notification. */
export const recordOrderChange = orderChanges.record;

/** Moves the order's resource as RESOURCE_FOLLOWS_ORDER says for the state the order just reached. */
export async function followResource(
  ctx: Context,
  tx: Tx,
  outbox: Outbox<Topics>,
  order: { id: string; type: OrderType; resourceId: string | null; limits: Prisma.JsonValue },
  reached: OrderState,
) {
  const follow = RESOURCE_FOLLOWS_ORDER[reached]?.[order.type];
  if (!follow || !order.resourceId) return;
  const resource: ResourceCore | null = await findUnique(tx, "resource", { where: { id: order.resourceId }, select: RESOURCE_CORE });
  if (!resource || (follow.onlyFrom && !follow.onlyFrom.includes(resource.state))) return;
  const limits = follow.appliesLimits && isNonEmptyObject(order.limits) ? { limits: order.limits as Prisma.InputJsonObject } : {};
  if (resource.state === follow.to && !Object.keys(limits).length) return;
  const { count } = await tx.resource.updateMany({ where: { id: resource.id, state: resource.state }, data: { state: follow.to, ...limits } });
  if (count === 0) return;
  await recordResourceChange(ctx, tx, outbox, resource, {
    eventType: follow.eventType,
    message: `Resource ${describeResource(resource)} has been moved from ${resourceStateLabel(resource.state)} to ${resourceStateLabel(follow.to)}.`,
    previousState: resource.state,
    state: follow.to,
    context: { order_uuid: toHex(order.id) },
  });
  await reconcileResourceStateChange(ctx, tx, outbox, resource, resource.state, follow.to);
}

const isNonEmptyObject = (value: unknown) =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
