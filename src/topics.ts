import type { TokenRevokedPayload } from "./auth/token-revoked.ts";
import type { EventCreatedPayload } from "./events/event-created.ts";
import type { MaintenanceChangedPayload } from "./maintenance/maintenance-changed.ts";
import type { OfferingUserChangedPayload } from "./offering-users/offering-user-changed.ts";
import type { OrderChangedPayload } from "./orders/order-changed.ts";
import type { ResourceChangedPayload } from "./resources/resource-changed.ts";

/** The app's pub/sub topics and their payloads (see platform/pubsub.ts). */
export type Topics = {
  offeringUserChanged: OfferingUserChangedPayload;
  eventCreated: EventCreatedPayload;
  orderChanged: OrderChangedPayload;
  resourceChanged: ResourceChangedPayload;
  maintenanceChanged: MaintenanceChangedPayload;
  tokenRevoked: TokenRevokedPayload;
};
