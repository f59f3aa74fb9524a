import { transitionErrorOf } from "../platform/errors.ts";
import type { EventType } from "../events/types.ts";
import { Permission } from "../auth/permissions.ts";
import type { OrderState, OrderType, ResourceState } from "../generated/prisma/client.ts";
import type { ExposedTransition } from "../graphql/transitions.ts";

export const OFFERING_TYPES = { BASIC: "Marketplace.Basic", SUPPORT: "Marketplace.Support", SLURM: "Marketplace.Slurm" } as const;

export interface OrderEffect {
  /** Whose permission the action needs: the project and its customer, or the offering and its customer. */
  side: "consumer" | "provider";
  permission: Permission;
  /** Offering types the action supports (405 for others); absent means every type. */
  offeringTypes?: readonly string[];
  /** The target is the next approval still required after this one (see approval.ts); `to` is the usual one. */
  approves?: "consumer" | "provider";
  /** Who decided, stored as consumer_reviewed_by/at or provider_reviewed_by/at. */
  reviews?: "consumer" | "provider";
  /** The action takes error_message and error_traceback. */
  storesError?: boolean;
  eventType: EventType;
}

type Rule = ExposedTransition<OrderState, OrderEffect>;

const ALL_STATES: readonly OrderState[] = [
  "PENDING_CONSUMER", "PENDING_PROVIDER", "PENDING_PROJECT", "PENDING_START_DATE", "EXECUTING", "DONE", "ERRED", "CANCELED", "REJECTED",
];

/** Waldur §6.3: POST /api/marketplace-orders/{uuid}/<action>/, source states as Waldur's state validators. */
export const ORDER_TRANSITIONS = {
  approve_by_consumer: {
    mutation: "approveOrderByConsumer",
    from: ["PENDING_CONSUMER"],
    to: "PENDING_PROVIDER",
    effect: { side: "consumer", permission: Permission.APPROVE_ORDER, approves: "consumer", reviews: "consumer", eventType: "marketplace_order_approved" },
  },
  reject_by_consumer: {
    mutation: "rejectOrderByConsumer",
    from: ["PENDING_CONSUMER"],
    to: "REJECTED",
    effect: { side: "consumer", permission: Permission.REJECT_ORDER, reviews: "consumer", eventType: "marketplace_order_rejected" },
  },
  approve_by_provider: {
    mutation: "approveOrderByProvider",
    from: ["PENDING_PROVIDER"],
    to: "EXECUTING",
    effect: { side: "provider", permission: Permission.APPROVE_ORDER, approves: "provider", reviews: "provider", eventType: "marketplace_order_approved" },
  },
  reject_by_provider: {
    mutation: "rejectOrderByProvider",
    from: ["PENDING_PROVIDER"],
    to: "REJECTED",
    effect: { side: "provider", permission: Permission.REJECT_ORDER, reviews: "provider", eventType: "marketplace_order_rejected" },
  },
  cancel: {
    mutation: "cancelOrder",
    from: ["PENDING_CONSUMER", "PENDING_PROVIDER", "PENDING_START_DATE", "EXECUTING"],
    to: "CANCELED",
    effect: {
      side: "consumer", permission: Permission.CANCEL_ORDER, offeringTypes: [OFFERING_TYPES.BASIC, OFFERING_TYPES.SUPPORT],
      eventType: "marketplace_order_canceled",
    },
  },
  set_state_executing: {
    mutation: "setOrderStateExecuting",
    from: ["PENDING_CONSUMER", "PENDING_PROVIDER", "ERRED"],
    to: "EXECUTING",
    effect: {
      side: "provider", permission: Permission.APPROVE_ORDER, offeringTypes: [OFFERING_TYPES.SLURM],
      eventType: "marketplace_order_updated",
    },
  },
  set_state_done: {
    mutation: "setOrderStateDone",
    from: ["EXECUTING"],
    to: "DONE",
    effect: {
      side: "provider", permission: Permission.APPROVE_ORDER, offeringTypes: [OFFERING_TYPES.SLURM, OFFERING_TYPES.BASIC, OFFERING_TYPES.SUPPORT],
      eventType: "marketplace_order_completed",
    },
  },
  set_state_erred: {
    mutation: "setOrderStateErred",
    from: ALL_STATES,
    to: "ERRED",
    effect: {
      side: "provider", permission: Permission.APPROVE_ORDER, offeringTypes: [OFFERING_TYPES.SLURM], storesError: true,
      eventType: "marketplace_order_failed",
    },
  },
} as const satisfies Record<string, Rule>;

export type OrderAction = keyof typeof ORDER_TRANSITIONS;
export const ORDER_ACTIONS = Object.keys(ORDER_TRANSITIONS) as OrderAction[];
export const orderRule = (action: OrderAction): Rule => ORDER_TRANSITIONS[action];

/** Orders that may still be deleted (Waldur's destroy validator). */
export const DELETABLE_ORDER_STATES: readonly OrderState[] = ["PENDING_CONSUMER", "PENDING_PROVIDER"];

export interface ResourceFollow {
  to: ResourceState;
  /** Only a resource in one of these states follows (others keep their state). */
  onlyFrom?: readonly ResourceState[];
  /** The order's limits become the resource's. */
  appliesLimits?: boolean;
  eventType: EventType;
}

/**
 * What the order's resource does when the order reaches a state, by order type. A Create order's resource is
 * created in Creating with the order; Update and Terminate orders move theirs once the provider starts work.
 */
export const RESOURCE_FOLLOWS_ORDER: Partial<Record<OrderState, Partial<Record<OrderType, ResourceFollow>>>> = {
  EXECUTING: {
    UPDATE: { to: "UPDATING", onlyFrom: ["OK", "ERRED"], eventType: "marketplace_resource_update_requested" },
    TERMINATE: { to: "TERMINATING", onlyFrom: ["OK", "ERRED"], eventType: "marketplace_resource_terminate_requested" },
  },
  DONE: {
    CREATE: { to: "OK", eventType: "marketplace_resource_create_succeeded" },
    UPDATE: { to: "OK", appliesLimits: true, eventType: "marketplace_resource_update_succeeded" },
    TERMINATE: { to: "TERMINATED", eventType: "marketplace_resource_terminate_succeeded" },
  },
  ERRED: {
    CREATE: { to: "ERRED", eventType: "marketplace_resource_create_failed" },
    UPDATE: { to: "ERRED", eventType: "marketplace_resource_update_failed" },
    TERMINATE: { to: "ERRED", eventType: "marketplace_resource_terminate_failed" },
  },
  REJECTED: {
    CREATE: { to: "TERMINATED", onlyFrom: ["CREATING"], eventType: "marketplace_resource_create_canceled" },
  },
  CANCELED: {
    CREATE: { to: "TERMINATED", onlyFrom: ["CREATING"], eventType: "marketplace_resource_create_canceled" },
    UPDATE: { to: "OK", onlyFrom: ["UPDATING"], eventType: "marketplace_resource_update_canceled" },
    TERMINATE: { to: "OK", onlyFrom: ["TERMINATING"], eventType: "marketplace_resource_terminate_canceled" },
  },
};

/** The resource states in which an Update or Terminate order may be placed. */
export const ORDERABLE_RESOURCE_STATES: Record<Exclude<OrderType, "CREATE">, readonly ResourceState[]> = {
  UPDATE: ["OK", "ERRED"],
  TERMINATE: ["OK", "ERRED"],
};

/** How this machine refuses an action from a state its table does not allow. */
export class OrderTransitionError extends transitionErrorOf<OrderState>() {}
