import { changeRecorder } from "../events/change-recorder.ts";
import type { MaintenanceState } from "../generated/prisma/client.ts";
import { toHex } from "../platform/ids.ts";
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

const maintenanceChanges = changeRecorder<MaintenanceCore, MaintenanceState | null>({
  label: maintenanceStateLabel,
  context: (m) => ({
    maintenance_announcement_uuid: toHex(m.id),
    maintenance_announcement_name: m.name,
    service_provider_uuid: toHex(m.serviceProviderId),
    customer_uuid: toHex(m.serviceProvider.customerId),
  }),
  // Scoped to the provider and its customer too, so providers find it in /api/events/.
  scopes: (m) => [
    { type: "MAINTENANCE", id: m.id },
    { type: "SERVICE_PROVIDER", id: m.serviceProviderId },
    { type: "CUSTOMER", id: m.serviceProvider.customerId },
  ],
  stateOnceGone: (m) => m.state,
  notification: (m, { state, previousState }) => ({
    topic: "maintenanceChanged",
    payload: { maintenanceId: m.id, serviceProviderId: m.serviceProviderId, providerCustomerId: m.serviceProvider.customerId, state, previousState },
  }),
});

/** Writes the audit event of a change in the caller's transaction and queues its notification. */
export const recordMaintenanceChange = maintenanceChanges.record;
