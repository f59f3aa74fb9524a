import type { OrderState, OrderType } from "../generated/prisma/client.ts";

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

export const ORDER_TYPE_LABELS: Record<OrderType, string> = { CREATE: "Create", UPDATE: "Update", TERMINATE: "Terminate" };

/** Waldur's request types: the order types and Restore, which is Waldur's own (no order here restores). */
export const REQUEST_TYPE_LABELS = { ...ORDER_TYPE_LABELS, RESTORE: "Restore" } as const;
export type RequestType = OrderType | "RESTORE";

/** Waldur's plan billing units (BillingUnit); a plan's unit outside them is shown as none. */
export const BILLING_UNITS: readonly string[] = ["day", "half_month", "hour", "month", "quantity", "quarter"];

export const TERMINAL_ORDER_STATES: readonly OrderState[] = ["DONE", "ERRED", "CANCELED", "REJECTED"];

export const orderStateLabel = (state: OrderState) => ORDER_STATE_LABELS[state];
export const orderTypeLabel = (type: OrderType) => ORDER_TYPE_LABELS[type];
