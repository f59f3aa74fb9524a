import { offeringProviderScopes } from "../auth/access.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { changeRecorder, type StateChange } from "../events/change-recorder.ts";
import { toHex } from "../platform/ids.ts";
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
  /** The record's copies of its offering's name and customer, and of its user's username. */
  offeringName: string;
  customerId: string;
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
  offeringName: true,
  customerId: true,
  userUsername: true,
} as const;

export type OfferingUserChange = StateChange<OfferingUserState>;

/** Where the record's provider-side roles are held: its offering and the offering's customer (the record's copy). */
export const providerScopesOf = (ou: { offeringId: string; customerId: string }) => offeringProviderScopes({ id: ou.offeringId, customerId: ou.customerId });

const offeringUserChanges = changeRecorder<OfferingUserCore, OfferingUserState>({
  label: stateLabel,
  context: (ou) => ({
    offering_user_uuid: toHex(ou.id),
    offering_uuid: toHex(ou.offeringId),
    offering_name: ou.offeringName,
    customer_uuid: toHex(ou.customerId),
    affected_user_uuid: toHex(ou.userId),
    affected_user_username: ou.userUsername,
  }),
  scopes: (ou) => [
    { type: "OFFERING_USER", id: ou.id },
    { type: "OFFERING", id: ou.offeringId },
    { type: "CUSTOMER", id: ou.customerId },
    { type: "USER", id: ou.userId },
  ],
  notification: (ou, { state, previousState }) => ({
    topic: "offeringUserChanged",
    payload: { offeringUserId: ou.id, offeringId: ou.offeringId, providerCustomerId: ou.customerId, state, previousState },
  }),
});

/** Writes the audit event of a change in the caller's transaction and queues its notification. */
export const recordOfferingUserChange = offeringUserChanges.record;

/** Writes a swap of the record and, if it changed the record, the change's audit event, in one statement. */
export const recordOfferingUserUpdate = offeringUserChanges.recordUpdate;

export const describe = (ou: OfferingUserCore) => `${ou.userUsername} in offering ${ou.offeringName}`;
