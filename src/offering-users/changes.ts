import type { EventType } from "../events/types.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import type { Context } from "../context.ts";
import { recordEvent, stateChangeContext } from "../events/record.ts";
import { toHex } from "../platform/ids.ts";
import type { Outbox, Tx } from "../platform/transaction.ts";
import type { Topics } from "../topics.ts";
import { stateLabel } from "./states.ts";

/** What an event about an offering user needs to know about it. */
export interface OfferingUserCore {
  id: string;
  state: OfferingUserState;
  username: string | null;
  offeringId: string;
  userId: string;
  serviceProviderComment: string;
  serviceProviderCommentUrl: string;
  offering: { name: string; customerId: string };
  /** The user's username (the record's copy of it). */
  userUsername: string;
}

export const OFFERING_USER_CORE = {
  id: true,
  state: true,
  username: true,
  offeringId: true,
  userId: true,
  serviceProviderComment: true,
  serviceProviderCommentUrl: true,
  offering: { select: { name: true, customerId: true } },
  userUsername: true,
} as const;

export interface OfferingUserChange {
  eventType: EventType;
  message: string;
  state: OfferingUserState;
  previousState: OfferingUserState | null;
  context?: Record<string, unknown>;
}

/** Writes the audit event of a change in the caller's transaction and queues its notification. */
export async function recordOfferingUserChange(
  ctx: Context,
  tx: Tx,
  outbox: Outbox<Topics>,
  ou: OfferingUserCore,
  change: OfferingUserChange,
) {
  const payload = {
    offeringUserId: ou.id,
    offeringId: ou.offeringId,
    providerCustomerId: ou.offering.customerId,
    state: change.state,
    previousState: change.previousState,
  };
  const event = await recordEvent(ctx, tx, outbox, {
    type: change.eventType,
    message: change.message,
    context: {
      offering_user_uuid: toHex(ou.id),
      offering_uuid: toHex(ou.offeringId),
      offering_name: ou.offering.name,
      customer_uuid: toHex(ou.offering.customerId),
      affected_user_uuid: toHex(ou.userId),
      affected_user_username: ou.userUsername,
      state: stateLabel(change.state),
      ...stateChangeContext(change.previousState, change.state, stateLabel),
      ...change.context,
    },
    scopes: [
      { type: "OFFERING_USER", id: ou.id },
      { type: "OFFERING", id: ou.offeringId },
      { type: "CUSTOMER", id: ou.offering.customerId },
      { type: "USER", id: ou.userId },
    ],
    change: { topic: "offeringUserChanged", payload },
  });
  outbox.publish("offeringUserChanged", { ...payload, eventId: event.id });
  return event;
}

export const describe = (ou: OfferingUserCore) => `${ou.userUsername} in offering ${ou.offering.name}`;
