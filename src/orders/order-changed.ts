import type { OrderState } from "../generated/prisma/client.ts";

/** The `orderChanged` topic: an order changed (state, backend id) or was deleted; `state` is null once it is gone. */
export interface OrderChangedPayload {
  orderId: string;
  offeringId: string;
  projectId: string;
  providerCustomerId: string;
  consumerCustomerId: string;
  state: OrderState | null;
  previousState: OrderState | null;
  eventId: number;
}

declare module "../platform/messaging/topics.ts" {
  interface Topics {
    orderChanged: OrderChangedPayload;
  }
}
