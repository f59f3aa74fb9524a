import type { EventType } from "../events/types.ts";
import type { Context } from "../context.ts";
import type { ResourceState } from "../generated/prisma/client.ts";
import { allocationEventParts, recordEvent, stateChangeContext } from "../events/record.ts";
import { toHex } from "../platform/ids.ts";
import type { Outbox, Tx } from "../platform/transaction.ts";
import type { Topics } from "../platform/topics.ts";
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

export interface ResourceChange {
  eventType: EventType;
  message: string;
  state: ResourceState;
  previousState: ResourceState | null;
  context?: Record<string, unknown>;
}

export const describeResource = (r: ResourceCore) => `${r.name || toHex(r.id)} in offering ${r.offering.name}`;

/** Writes the audit event of a resource change in the caller's transaction and queues its notification. */
export async function recordResourceChange(ctx: Context, tx: Tx, outbox: Outbox<Topics>, resource: ResourceCore, change: ResourceChange) {
  const allocation = allocationEventParts(resource);
  const payload = {
    resourceId: resource.id,
    offeringId: resource.offeringId,
    projectId: resource.projectId,
    providerCustomerId: resource.offering.customerId,
    state: change.state,
    previousState: change.previousState,
  };
  const event = await recordEvent(ctx, tx, outbox, {
    type: change.eventType,
    message: change.message,
    context: {
      resource_uuid: toHex(resource.id),
      resource_name: resource.name,
      ...allocation.context,
      state: resourceStateLabel(change.state),
      ...stateChangeContext(change.previousState, change.state, resourceStateLabel),
      ...change.context,
    },
    scopes: [{ type: "RESOURCE", id: resource.id }, ...allocation.scopes],
    change: { topic: "resourceChanged", payload },
  });
  outbox.publish("resourceChanged", { ...payload, eventId: event.id });
  return event;
}
