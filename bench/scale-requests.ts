import type { ScaleData } from "../test/support/scale-data.ts";

/** One read of the scale scenario: its label is the same at every size, its values come from that size's data. */
export interface ScaleRequest {
  label: string;
  path: string;
  /** A deep page: held to the same bound, or to Waldur's OFFSET behaviour as docs/operations.md documents it. */
  deep: boolean;
}

const OFFERING_USERS = "/api/marketplace-offering-users/?page_size=10";
const EVENTS = "/api/events/?page_size=10";
const DAY_MS = 86_400_000;
const DEEP = "page=<deep>";

/**
 * The offering-user list bare, with each filter of its contract (`npm run -s docs:filters`) and each ordering, and a
 * deep page; the event list bare, by type, in its ordering and at a deep page. Date filters fall 30 days (recent) or
 * 970 days (early) back, so they match about 3% of the rows at any size (the seed spreads them over 1,000 days).
 */
export function scaleRequests(data: ScaleData, deepPage: number): ScaleRequest[] {
  const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
  const [first, second] = data.offeringUuids;
  const { sample } = data;
  const offeringUsers: Array<[label: string, query: string]> = [
    ["", ""],
    ["state=Requested", "state=Requested"],
    ["state=OK", "state=OK"],
    ["provider_uuid=<provider>", `provider_uuid=${data.providerUuid}`],
    ["offering_uuid=<offering>", `offering_uuid=${first}`],
    ["offering=<offering>", `offering=${second}`],
    ["user_uuid=<user>", `user_uuid=${sample.userUuid}`],
    ["username=<username>", `username=${sample.username}`],
    ["user_username=<user's username>", `user_username=${sample.userUsername.toUpperCase()}`],
    ["created=<30 days ago>", `created=${daysAgo(30)}`],
    ["created_after=<30 days ago>", `created_after=${daysAgo(30)}`],
    ["created_before=<970 days ago>", `created_before=${daysAgo(970)}`],
    ["modified=<30 days ago>", `modified=${daysAgo(30)}`],
    ["modified_after=<30 days ago>", `modified_after=${daysAgo(30)}`],
    ["modified_before=<970 days ago>", `modified_before=${daysAgo(970)}`],
    ["is_restricted=true", "is_restricted=true"],
    ["runtime_state=Pending account linking", "runtime_state=Pending%20account%20linking"],
    ["offering_slug=<slug>", `offering_slug=${data.offeringSlug}`],
    ["parent_offering_uuid=<offering>", `parent_offering_uuid=${first}`],
    ["has_consent=true", "has_consent=true"],
    ["has_consent=false", "has_consent=false"],
    ["has_complete_profile=true", "has_complete_profile=true"],
    ["offering_has_active_tos=true", "offering_has_active_tos=true"],
    ["query=<a last name>", `query=${sample.lastName}`],
    ["o=created", "o=created"],
    ["o=-created", "o=-created"],
    ["o=modified", "o=modified"],
    ["o=-username", "o=-username"],
    ["o=user_first_name", "o=user_first_name"],
    ["o=user_last_name", "o=user_last_name"],
    [DEEP, `page=${deepPage}`],
  ];
  const events: Array<[label: string, query: string]> = [
    ["", ""],
    [`event_type=${data.eventType}`, `event_type=${data.eventType}`],
    ["o=created", "o=created"],
    [DEEP, `page=${deepPage}`],
  ];
  const withQuery = (base: string, query: string) => (query ? `${base}&${query}` : base);
  return [
    ...offeringUsers.map(([label, query]) => ({ label: `offering users ${label}`.trim(), path: withQuery(OFFERING_USERS, query), deep: label === DEEP })),
    ...events.map(([label, query]) => ({ label: `events ${label}`.trim(), path: withQuery(EVENTS, query), deep: label === DEEP })),
  ];
}
