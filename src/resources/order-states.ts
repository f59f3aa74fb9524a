import type { OrderState } from "../generated/prisma/client.ts";

// The states of the orders that create, change and end a resource: the orders domain moves them, and resources are
// filtered by them (`order_state`), so their vocabulary sits here, under both.

/** Waldur's display label of each order state (lowercase, dashed; "canceled" with one l). */
export const ORDER_STATE_LABELS: Record<OrderState, string> = {
  PENDING_CONSUMER: "pending-consumer",
  PENDING_PROVIDER: "pending-provider",
  PENDING_PROJECT: "pending-project",
  PENDING_START_DATE: "pending-start-date",
  EXECUTING: "executing",
  DONE: "done",
  ERRED: "erred",
  CANCELED: "canceled",
  REJECTED: "rejected",
};

export const orderStateLabel = (state: OrderState) => ORDER_STATE_LABELS[state];
