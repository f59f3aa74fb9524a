import type { ResourceState } from "../generated/prisma/client.ts";

/** The `resourceChanged` topic: a provisioned resource was created or changed state. */
export interface ResourceChangedPayload {
  resourceId: string;
  offeringId: string;
  projectId: string;
  providerCustomerId: string;
  state: ResourceState;
  previousState: ResourceState | null;
  eventId: number;
}

declare module "../platform/messaging/topics.ts" {
  interface Topics {
    resourceChanged: ResourceChangedPayload;
  }
}
