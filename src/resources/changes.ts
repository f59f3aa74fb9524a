import type { ResourceState } from "../generated/prisma/client.ts";
import { changeRecorder } from "../events/change-recorder.ts";
import { allocationEventParts } from "../events/record.ts";
import { toHex } from "../platform/ids.ts";
import { resourceStateLabel } from "./states.ts";

/** What an event about a resource needs to know about it. */
export const RESOURCE_CORE = {
  id: true,
  name: true,
  state: true,
  offeringId: true,
  projectId: true,
  offering: { select: { name: true, customerId: true } },
  project: { select: { name: true, customerId: true } },
} as const;

export interface ResourceCore {
  id: string;
  name: string;
  state: ResourceState;
  offeringId: string;
  projectId: string;
  offering: { name: string; customerId: string };
  project: { name: string; customerId: string };
}

export const describeResource = (r: ResourceCore) => `${r.name || toHex(r.id)} in offering ${r.offering.name}`;

const resourceChanges = changeRecorder<ResourceCore, ResourceState>({
  label: resourceStateLabel,
  context: (resource) => ({ resource_uuid: toHex(resource.id), resource_name: resource.name, ...allocationEventParts(resource).context }),
  scopes: (resource) => [{ type: "RESOURCE", id: resource.id }, ...allocationEventParts(resource).scopes],
  notification: (resource, { state, previousState }) => ({
    topic: "resourceChanged",
    payload: {
      resourceId: resource.id,
      offeringId: resource.offeringId,
      projectId: resource.projectId,
      providerCustomerId: resource.offering.customerId,
      state,
      previousState,
    },
  }),
});

/** Writes the audit event of a resource change in the caller's transaction and queues its notification. */
export const recordResourceChange = resourceChanges.record;
