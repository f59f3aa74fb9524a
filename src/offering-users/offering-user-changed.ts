import type { OfferingUserState } from "../generated/prisma/client.ts";

/** The `offeringUserChanged` topic: an offering user was created or changed state. */
export interface OfferingUserChangedPayload {
  offeringUserId: string;
  offeringId: string;
  providerCustomerId: string;
  state: OfferingUserState;
  previousState: OfferingUserState | null;
  eventId: number;
}

declare module "../platform/messaging/topics.ts" {
  interface Topics {
    offeringUserChanged: OfferingUserChangedPayload;
  }
}
