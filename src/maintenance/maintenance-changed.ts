/** The `maintenanceChanged` topic: a maintenance announcement (or one of its offering links) changed; `state` is null once it is deleted. */
export interface MaintenanceChangedPayload {
  maintenanceId: string;
  serviceProviderId: string;
  providerCustomerId: string;
  state: string | null;
  previousState: string | null;
  eventId: number;
}
