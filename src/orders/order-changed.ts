/** The `orderChanged` topic: an order changed (state, backend id) or was deleted; `state` is null once it is gone. */
export interface OrderChangedPayload {
  orderId: string;
  offeringId: string;
  projectId: string;
  providerCustomerId: string;
  consumerCustomerId: string;
  state: string | null;
  previousState: string | null;
  eventId: number;
}
