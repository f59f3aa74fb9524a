import { transitionErrorOf } from "../platform/errors.ts";
import type { ResourceState } from "../generated/prisma/client.ts";
import type { ExposedTransition } from "../graphql/transitions.ts";
import { RESOURCE_STATE_LABELS } from "./states.ts";

const ALL_STATES = Object.keys(RESOURCE_STATE_LABELS) as ResourceState[];

/**
 * What the provider (its site agent) may say about a resource's state, as Waldur's Resource FSM allows it:
 * OK from any unfinished or failed state, Erred from any state.
 */
export const RESOURCE_TRANSITIONS = {
  setAsOk: { mutation: "setResourceAsOk", from: ["CREATING", "UPDATING", "TERMINATING", "ERRED"], to: "OK" },
  setAsErred: { mutation: "setResourceAsErred", from: ALL_STATES, to: "ERRED" },
} as const satisfies Record<string, ExposedTransition<ResourceState>>;
export type ResourceTransition = keyof typeof RESOURCE_TRANSITIONS;

/** How this machine refuses an action from a state its table does not allow. */
export class ResourceTransitionError extends transitionErrorOf<ResourceState>() {}
