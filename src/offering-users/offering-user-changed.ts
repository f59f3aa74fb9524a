/** The `offeringUserChanged` topic: an offering user was created or changed state. */
export interface OfferingUserChangedPayload {
  offeringUserId: string;
  offeringId: string;
  providerCustomerId: string;
  state: string;
  previousState: string | null;
  eventId: number;
}
