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

export const TERMINAL_ORDER_STATES: readonly OrderState[] = ["DONE", "ERRED", "CANCELED", "REJECTED"];

export const orderStateLabel = (state: OrderState) => ORDER_STATE_LABELS[state];
export const orderTypeLabel = (type: OrderType) => ORDER_TYPE_LABELS[type];

const invert = <K extends string>(labels: Record<K, string>) => {
  const byLabel = new Map(Object.entries(labels).map(([key, label]) => [label as string, key as K]));
  return (label: string) => byLabel.get(label);
};
export const orderStateFromLabel = invert(ORDER_STATE_LABELS);
export const orderTypeFromLabel = invert(ORDER_TYPE_LABELS);
