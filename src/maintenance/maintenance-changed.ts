import type { MaintenanceState } from "../generated/prisma/client.ts";

/** The `maintenanceChanged` topic: a maintenance announcement (or one of its offering links) changed; `state` is null once it is deleted. */
export interface MaintenanceChangedPayload {
  maintenanceId: string;
  serviceProviderId: string;
  providerCustomerId: string;
  state: MaintenanceState | null;
  previousState: MaintenanceState | null;
  eventId: number;
}

declare module "../platform/messaging/topics.ts" {
  interface Topics {
    maintenanceChanged: MaintenanceChangedPayload;
  }
}
