import { transitionErrorOf } from "../platform/errors.ts";
import type { ResourceState } from "../generated/prisma/client.ts";
import type { ExposedTransition } from "../graphql/transitions.ts";

/** Waldur's display label of each resource state; the API shows labels. */
export const RESOURCE_STATE_LABELS: Record<ResourceState, string> = {
  CREATING: "Creating",
  OK: "OK",
  ERRED: "Erred",
  UPDATING: "Updating",
  TERMINATING: "Terminating",
  TERMINATED: "Terminated",
};

export const resourceStateLabel = (state: ResourceState) => RESOURCE_STATE_LABELS[state];

const BY_LABEL = new Map(Object.entries(RESOURCE_STATE_LABELS).map(([state, label]) => [label, state as ResourceState]));
export const resourceStateFromLabel = (label: string) => BY_LABEL.get(label);

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
