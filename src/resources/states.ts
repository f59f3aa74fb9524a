import type { ResourceState } from "../generated/prisma/client.ts";

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
