import type { OfferingUserState } from "../src/generated/prisma/client.ts";
import { stateLabel } from "../src/offering-users/states.ts";

/**
 * The Waldur JSON of an offering user, written by hand for the layers below the gateway (bare node:http + pg and
 * Hono + Prisma), from one flat row. The fields are those of OfferingUserRest (src/offering-users/rest.ts), in order.
 */
export interface OfferingUserRow {
  id: string;
  username: string | null;
  state: OfferingUserState;
  is_restricted: boolean;
  service_provider_comment: string;
  service_provider_comment_url: string;
  backend_metadata: unknown;
  created: Date;
  modified: Date;
  offering_id: string;
  user_id: string;
  offering_name: string;
  customer_id: string;
  customer_name: string;
  user_username: string;
  first_name: string;
  last_name: string;
  email: string;
  /** The offering's active terms of service, if any. */
  terms_version: string | null;
  terms_requires_reconsent: boolean | null;
  grace_ends: Date | null;
  /** The user's consent to this offering's terms, if any. */
  consent_version: string | null;
  consent_revoked: Date | null;
}

const hex = (uuid: string) => uuid.replaceAll("-", "");

/** As src/graphql/scalars.ts renders DateTime (not imported: that module pulls in the whole schema builder). */
const formatDateTime = (date: Date) => {
  const iso = date.toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : `${iso.slice(0, -1)}000Z`;
};

/** As src/offering-users/contract.ts runtimeStateOf reads it off the state: only the two pending states are not Active. */
const runtimeStateLabel = (state: OfferingUserState) =>
  state === "PENDING_ACCOUNT_LINKING" || state === "PENDING_ADDITIONAL_VALIDATION" ? stateLabel(state) : "Active";

/** As src/terms-of-service/consent-status.ts decides it (restated: these layers use no project code). */
function consent(row: OfferingUserRow): { has: boolean; reconsent: boolean } {
  if (row.terms_version === null) return { has: false, reconsent: false };
  if (row.consent_version === null || row.consent_revoked !== null) return { has: false, reconsent: false };
  if (row.consent_version === row.terms_version || !row.terms_requires_reconsent) return { has: true, reconsent: false };
  const grace = Date.now() < row.grace_ends!.getTime();
  return { has: grace, reconsent: true };
}

export function offeringUserJson(row: OfferingUserRow, origin: string) {
  const { has, reconsent } = consent(row);
  return {
    url: `${origin}/api/marketplace-offering-users/${hex(row.id)}/`,
    uuid: hex(row.id),
    username: row.username,
    state: stateLabel(row.state),
    runtime_state: runtimeStateLabel(row.state),
    offering: `${origin}/api/marketplace-provider-offerings/${hex(row.offering_id)}/`,
    offering_uuid: hex(row.offering_id),
    offering_name: row.offering_name,
    offering_has_active_tos: row.terms_version !== null,
    user: `${origin}/api/users/${hex(row.user_id)}/`,
    user_uuid: hex(row.user_id),
    user_username: row.user_username,
    user_full_name: `${row.first_name} ${row.last_name}`.trim(),
    user_first_name: row.first_name,
    user_last_name: row.last_name,
    user_email: row.email,
    customer_uuid: hex(row.customer_id),
    customer_name: row.customer_name,
    is_restricted: row.is_restricted,
    service_provider_comment: row.service_provider_comment,
    service_provider_comment_url: row.service_provider_comment_url,
    backend_metadata: row.backend_metadata,
    has_consent: has,
    requires_reconsent: reconsent,
    created: formatDateTime(row.created),
    modified: formatDateTime(row.modified),
  };
}

export const OFFERING_USERS_PATH = "/api/marketplace-offering-users/";
const ONE_OFFERING_USER = /^\/api\/marketplace-offering-users\/([0-9a-f]{32}|[0-9a-f-]{36})\/?$/i;

/** The offering user's uuid when `pathname` is a retrieve path. */
export const offeringUserUuidIn = (pathname: string) => ONE_OFFERING_USER.exec(pathname)?.[1];
