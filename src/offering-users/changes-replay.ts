import type { Context } from "../context.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { eventsAfter, type LoggedEvent } from "../events/resume.ts";
import type { OfferingUserChangedPayload } from "./offering-user-changed.ts";
import { OFFERING_USER_STATE_NAMES, OFFERING_USER_STATES } from "./states.ts";

const STATE_OF_LABEL = new Map<string, OfferingUserState>(
  OFFERING_USER_STATE_NAMES.map((state) => [OFFERING_USER_STATES[state].label, state]),
);

const scopeOf = (event: LoggedEvent, type: string) => event.scopes.find((scope) => scope.scopeType === type)?.scopeId;

const stateAt = (context: unknown, key: string) => {
  const label = context && typeof context === "object" ? Reflect.get(context, key) : undefined;
  return typeof label === "string" ? STATE_OF_LABEL.get(label) : undefined;
};

/** The change an offering user's audit event records, as the live topic carried it. */
function changeOf(event: LoggedEvent): OfferingUserChangedPayload | null {
  const offeringUserId = scopeOf(event, "OFFERING_USER");
  const offeringId = scopeOf(event, "OFFERING");
  const providerCustomerId = scopeOf(event, "CUSTOMER");
  const state = stateAt(event.context, "state");
  if (!offeringUserId || !offeringId || !providerCustomerId || !state) return null;
  const previousState = stateAt(event.context, "old_state") ?? null;
  return { offeringUserId, offeringId, providerCustomerId, state, previousState, eventId: event.id };
}

/** The offering-user changes recorded after event `after`, for a subscription that resumes. */
export const offeringUserChangesAfter = (ctx: Context, after: number) =>
  eventsAfter(ctx, after, { scopes: { some: { scopeType: "OFFERING_USER" } } }, changeOf);
