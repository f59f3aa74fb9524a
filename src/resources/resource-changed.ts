/** The `resourceChanged` topic: a provisioned resource was created or changed state. */
export interface ResourceChangedPayload {
  resourceId: string;
  offeringId: string;
  projectId: string;
  providerCustomerId: string;
  state: string;
  previousState: string | null;
  eventId: number;
}
