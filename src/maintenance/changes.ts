import type { EventType } from "../events/types.ts";
import type { Context } from "../context.ts";
import { recordEvent, stateChangeContext } from "../events/record.ts";
import type { MaintenanceState } from "../generated/prisma/client.ts";
import { toHex } from "../platform/ids.ts";
import type { Outbox, Tx } from "../platform/transaction.ts";
import type { Topics } from "../platform/topics.ts";
import { maintenanceStateLabel } from "./enums.ts";

/** What an event about a maintenance announcement needs to know about it. */
export interface MaintenanceCore {
  id: string;
  name: string;
  state: MaintenanceState;
  serviceProviderId: string;
  serviceProvider: { customerId: string };
}

export const MAINTENANCE_CORE = {
  id: true,
  name: true,
  state: true,
  serviceProviderId: true,
  serviceProvider: { select: { customerId: true } },
} as const;

export interface MaintenanceChange {
  eventType: EventType;
  message: string;
  previousState: MaintenanceState | null;
  /** null once the announcement is deleted. */
  state: MaintenanceState | null;
  context?: Record<string, unknown>;
}

/**
 * Writes the audit event of a change in the caller's transaction (scoped to the announcement, its service
 * provider and the provider's customer, so providers find it in /api/events/) and queues its notification.
 */
export async function recordMaintenanceChange(ctx: Context, tx: Tx, outbox: Outbox<Topics>, m: MaintenanceCore, change: MaintenanceChange) {
  const customerId = m.serviceProvider.customerId;
  const payload = {
    maintenanceId: m.id,
    serviceProviderId: m.serviceProviderId,
    providerCustomerId: customerId,
    state: change.state,
    previousState: change.previousState,
  };
  const event = await recordEvent(ctx, tx, outbox, {
    type: change.eventType,
    message: change.message,
    context: {
      maintenance_announcement_uuid: toHex(m.id),
      maintenance_announcement_name: m.name,
      service_provider_uuid: toHex(m.serviceProviderId),
      customer_uuid: toHex(customerId),
      state: maintenanceStateLabel(change.state ?? m.state),
      ...stateChangeContext(change.previousState, change.state, maintenanceStateLabel),
      ...change.context,
    },
    scopes: [
      { type: "MAINTENANCE", id: m.id },
      { type: "SERVICE_PROVIDER", id: m.serviceProviderId },
      { type: "CUSTOMER", id: customerId },
    ],
    change: { topic: "maintenanceChanged", payload },
  });
  outbox.publish("maintenanceChanged", { ...payload, eventId: event.id });
  return event;
}
