import { transitionErrorOf } from "../platform/errors.ts";
import type { EventType } from "../events/types.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import type { TransitionRule } from "../platform/state-machine.ts";
import type { ExposedTransition } from "../graphql/transitions.ts";
import { OFFERING_USER_STATES, stateLabel } from "./states.ts";

export interface OfferingUserEffect {
  /** The operation takes `comment` / `comment_url` and stores them as the service-provider comment. */
  storesComment?: boolean;
  /** Both comment fields are cleared. */
  clearsComments?: boolean;
  /** Waldur's event type for this operation (default `marketplace_offering_user_updated`). */
  eventType?: EventType;
}

type Rule = TransitionRule<OfferingUserState, OfferingUserEffect>;

/** The spec's transition table (section 3.2), one entry per operation that a hosting site may call, and its mutation. */
export const OFFERING_USER_TRANSITIONS = {
  begin_creating: { mutation: "beginCreatingOfferingUser", from: ["CREATION_REQUESTED", "ERROR_CREATING"], to: "CREATING" },
  set_ok: { mutation: "setOkOfferingUser", from: ["CREATION_REQUESTED", "CREATING", "ERROR_CREATING", "ERROR_DELETING"], to: "OK" },
  set_pending_account_linking: {
    mutation: "setPendingAccountLinkingOfferingUser",
    from: ["CREATING", "ERROR_CREATING"],
    to: "PENDING_ACCOUNT_LINKING",
    effect: { storesComment: true, eventType: "marketplace_offering_user_restriction_updated" },
  },
  set_pending_additional_validation: {
    mutation: "setPendingAdditionalValidationOfferingUser",
    from: ["CREATING", "ERROR_CREATING"],
    to: "PENDING_ADDITIONAL_VALIDATION",
    effect: { storesComment: true },
  },
  set_validation_complete: {
    mutation: "setValidationCompleteOfferingUser",
    from: ["PENDING_ACCOUNT_LINKING", "PENDING_ADDITIONAL_VALIDATION"],
    to: "OK",
    effect: { clearsComments: true },
  },
  set_error_creating: {
    mutation: "setErrorCreatingOfferingUser",
    from: ["CREATION_REQUESTED", "CREATING", "PENDING_ACCOUNT_LINKING", "PENDING_ADDITIONAL_VALIDATION"],
    to: "ERROR_CREATING",
  },
  request_deletion: { mutation: "requestDeletionOfferingUser", from: ["OK"], to: "DELETION_REQUESTED" },
  set_deleting: { mutation: "setDeletingOfferingUser", from: ["DELETION_REQUESTED", "ERROR_DELETING"], to: "DELETING" },
  set_deleted: { mutation: "setDeletedOfferingUser", from: ["DELETING"], to: "DELETED" },
  set_error_deleting: { mutation: "setErrorDeletingOfferingUser", from: ["DELETION_REQUESTED", "DELETING"], to: "ERROR_DELETING" },
} as const satisfies Record<string, ExposedTransition<OfferingUserState, OfferingUserEffect>>;

export type OfferingUserOperation = keyof typeof OFFERING_USER_TRANSITIONS;
export const OFFERING_USER_OPERATIONS = Object.keys(OFFERING_USER_TRANSITIONS) as OfferingUserOperation[];

/** Transitions the system makes itself, not exposed as operations. */
export const INTERNAL_OFFERING_USER_TRANSITIONS = {
  /** A hosting site pushing back a new non-empty username finishes account creation. */
  username_assigned: {
    from: ["CREATION_REQUESTED", "CREATING", "PENDING_ACCOUNT_LINKING", "PENDING_ADDITIONAL_VALIDATION", "ERROR_CREATING"],
    to: "OK",
    effect: { clearsComments: true },
  },
  /** The user regained access to a resource of the offering before the account was removed (Waldur §2.6). */
  restore: { from: ["DELETION_REQUESTED", "DELETING"], to: "OK", effect: { clearsComments: true } },
  /** The user regained access after the account was removed: it has to be created again. */
  recreate: { from: ["DELETED"], to: "CREATION_REQUESTED", effect: { clearsComments: true } },
  /** The user lost the last connection to a non-terminated resource of the offering (Waldur §2.6). */
  access_lost: {
    from: ["OK", "CREATING", "PENDING_ACCOUNT_LINKING", "PENDING_ADDITIONAL_VALIDATION", "ERROR_CREATING"],
    to: "DELETION_REQUESTED",
  },
  /** As access_lost, for an account never provisioned: there is nothing to delete. */
  access_lost_unprovisioned: { from: ["CREATION_REQUESTED"], to: "DELETED" },
} as const satisfies Record<string, Rule>;

/** update_comments is valid in every state but these. */
export const COMMENTS_FROZEN_IN: readonly OfferingUserState[] = ["DELETED"];

export const ruleFor = (operation: OfferingUserOperation): Rule => OFFERING_USER_TRANSITIONS[operation];

export const storesComment = (op: OfferingUserOperation) => {
  return ruleFor(op).effect?.storesComment === true;
};

/** How this machine refuses an action from a state its table does not allow. */
export class OfferingUserTransitionError extends transitionErrorOf<OfferingUserState>() {}

/** The refusal of `rule` from `current`: named states to GraphQL, Waldur's integer code to REST (`restMessage`). */
export function invalidTransition(rule: TransitionRule<OfferingUserState, unknown>, current: OfferingUserState) {
  const valid = rule.from.map(stateLabel).join(", ");
  const refusal = new OfferingUserTransitionError(
    `Cannot transition to ${stateLabel(rule.to)} from current state: ${stateLabel(current)}. Valid states for operation: ${valid}.`,
    current,
    rule.from,
  );
  refusal.restMessage = `Cannot transition to ${stateLabel(rule.to)} from current state: ${OFFERING_USER_STATES[current].code}. Valid states for operation: ${valid}.`;
  return refusal;
}
