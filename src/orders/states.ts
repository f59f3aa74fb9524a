import type { OrderState, OrderType } from "../generated/prisma/client.ts";

export const ORDER_TYPE_LABELS: Record<OrderType, string> = { CREATE: "Create", UPDATE: "Update", TERMINATE: "Terminate" };

/** Waldur's request types: the order types and Restore, which is Waldur's own (no order here restores). */
export const REQUEST_TYPE_LABELS = { ...ORDER_TYPE_LABELS, RESTORE: "Restore" } as const;
export type RequestType = OrderType | "RESTORE";

export const TERMINAL_ORDER_STATES: readonly OrderState[] = ["DONE", "ERRED", "CANCELED", "REJECTED"];

export const orderTypeLabel = (type: OrderType) => ORDER_TYPE_LABELS[type];
