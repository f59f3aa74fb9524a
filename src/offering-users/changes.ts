import type { EventType } from "../events/types.ts";
import type { OfferingUserState, Prisma } from "../generated/prisma/client.ts";
import type { Context } from "../context.ts";
import { type EventSpec, recordChange, recordEvent, stateChangeContext } from "../events/record.ts";
import { toHex } from "../platform/ids.ts";
import type { Outbox, Tx } from "../platform/transaction.ts";
import type { Topics } from "../platform/topics.ts";
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

/** The audit event of a change, with the notification it is published as. */
function changeEvent(ou: OfferingUserCore, change: OfferingUserChange) {
  const payload = {
    offeringUserId: ou.id,
    offeringId: ou.offeringId,
    providerCustomerId: ou.offering.customerId,
    state: change.state,
    previousState: change.previousState,
  };
  const spec: EventSpec = {
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
  };
  return { spec, publish: (outbox: Outbox<Topics>, eventId: number) => outbox.publish("offeringUserChanged", { ...payload, eventId }) };
}

/** Writes the audit event of a change in the caller's transaction and queues its notification. */
export async function recordOfferingUserChange(
  ctx: Context,
  tx: Tx,
  outbox: Outbox<Topics>,
  ou: OfferingUserCore,
  change: OfferingUserChange,
) {
  const { spec, publish } = changeEvent(ou, change);
  const event = await recordEvent(ctx, tx, outbox, spec);
  publish(outbox, event.id);
  return event;
}

/**
 * Writes `update` (a statement on the record, RETURNING what it changed) and, if it changed the record, the change's
 * audit event, in one statement (see recordChange); answers how many rows it changed.
 */
export async function recordOfferingUserUpdate(
  ctx: Context,
  db: Tx,
  outbox: Outbox<Topics>,
  ou: OfferingUserCore,
  update: Prisma.Sql,
  change: OfferingUserChange,
) {
  const { spec, publish } = changeEvent(ou, change);
  const { changed, event } = await recordChange(ctx, db, outbox, update, spec);
  if (event) publish(outbox, event.id);
  return { count: changed };
}

export const describe = (ou: OfferingUserCore) => `${ou.userUsername} in offering ${ou.offering.name}`;
