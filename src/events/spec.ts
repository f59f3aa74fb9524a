import type { EventType } from "./types.ts";
import type { EventScopeType, ScopeType } from "../generated/prisma/client.ts";
import type { Topics } from "../platform/messaging/topics.ts";

/** Topics whose changes subscribers may resume: the domain changes, each published with its event's id. */
export type ChangeTopic = "offeringUserChanged" | "orderChanged" | "resourceChanged" | "maintenanceChanged";

/** What a change is published as, without the event id it gets: kept with the event, for subscribers that resume. */
export type RecordedChange = { [K in ChangeTopic]: { topic: K; payload: Omit<Topics[K], "eventId"> } }[ChangeTopic];

export interface EventSpec {
  type: EventType;
  message: string;
  /** What changed: old and new values, the objects concerned (uuids in hex). */
  context: Record<string, unknown>;
  /** The objects the event belongs to; they decide who can see it and which filters match it. */
  scopes: Array<{ type: EventScopeType; id: string }>;
  /** The change the caller publishes after this event, with the event's id (see events/resume.ts). */
  change?: RecordedChange;
  /** A role given or ended: whose access it may change, which followers of the event reconcile (offering users). */
  roleChange?: RoleChange;
}

/** The user whose role in a scope began or ended. */
export interface RoleChange {
  userId: string;
  scopeType: ScopeType;
  scopeId: string;
  role: string;
}
