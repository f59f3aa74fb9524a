import type { ConsentOrder } from "../../src/terms-of-service/consents.ts";
import type { TermsOrder } from "../../src/terms-of-service/service.ts";
import { booleanParam, compact, hyperlink, optionalBoolean, optionalString, ordering, queryValue, uuidParam } from "../input.ts";
import { fieldError } from "../../src/platform/errors.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { byUuid, retrieveRoute, deleteRoute } from "./common.ts";

const TERMS = "/api/marketplace-offering-terms-of-service";
const CONSENTS = "/api/marketplace-user-offering-consents";

const TERMS_ORDER: Record<string, TermsOrder> = {
  created: "CREATED_ASC", "-created": "CREATED_DESC", modified: "MODIFIED_ASC", "-modified": "MODIFIED_DESC",
  version: "VERSION_ASC", "-version": "VERSION_DESC",
};
const CONSENT_ORDER: Record<string, ConsentOrder> = {
  agreement_date: "AGREEMENT_DATE_ASC", "-agreement_date": "AGREEMENT_DATE_DESC", created: "CREATED_ASC",
  "-created": "CREATED_DESC", modified: "MODIFIED_ASC", "-modified": "MODIFIED_DESC",
  revocation_date: "REVOCATION_DATE_ASC", "-revocation_date": "REVOCATION_DATE_DESC",
};

function optionalInteger(body: Record<string, unknown>, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value)) throw fieldError(field, "A valid integer is required.");
  return value;
}

/** The fields a PUT/PATCH may change; `version` and `requires_reconsent` are ignored (fixed at creation). */
const termsInput = (body: Record<string, unknown>) =>
  compact({
    termsOfService: optionalString(body, "terms_of_service"),
    termsOfServiceLink: optionalString(body, "terms_of_service_link"),
    isActive: optionalBoolean(body, "is_active"),
    gracePeriodDays: optionalInteger(body, "grace_period_days"),
  });

function termsFilter({ query }: RestRequest) {
  const offering = queryValue(query, "offering");
  return compact({
    offeringUuid: uuidParam(query, "offering_uuid") ?? (offering ? hyperlink(offering, "offering", "marketplace-provider-offerings") : undefined),
    isActive: booleanParam(query, "is_active"),
    version: queryValue(query, "version"),
    requiresReconsent: booleanParam(query, "requires_reconsent"),
  });
}

const update = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${TERMS}/:uuid/`,
  summary: "Update terms of service (version and requires_reconsent stay as created)",
  document: `mutation($uuid: ID!, $input: TermsOfServiceInput!) { updateOfferingTermsOfService(uuid: $uuid, input: $input) { ...TermsOfServiceRest } }`,
  variables: ({ params, body }) => ({ uuid: params.uuid, input: termsInput(body) }),
  kind: "object",
});

export const termsOfServiceRoutes: RouteSpec[] = [
  {
    method: "GET",
    path: `${TERMS}/`,
    summary: "List terms-of-service configurations visible to the caller",
    document: `query($first: Int, $offset: Int, $filter: TermsOfServiceFilter, $orderBy: [TermsOfServiceOrder!]) {
      offeringTermsOfServices(first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) { totalCount nodes { ...TermsOfServiceRest } } }`,
    variables: (request) => compact({ filter: termsFilter(request), orderBy: ordering(request.query, TERMS_ORDER) }),
    kind: "list",
  },
  retrieveRoute(TERMS, "Retrieve a terms-of-service configuration", "offeringTermsOfService", "TermsOfServiceRest"),
  {
    method: "POST",
    path: `${TERMS}/`,
    summary: "Create a terms-of-service configuration (UPDATE_OFFERING on the offering or its customer)",
    document: `mutation($input: CreateTermsOfServiceInput!) { createOfferingTermsOfService(input: $input) { ...TermsOfServiceRest } }`,
    variables: ({ body }) => ({
      input: compact({
        offeringUuid: hyperlink(body.offering, "offering", "marketplace-provider-offerings"),
        version: optionalString(body, "version"),
        requiresReconsent: optionalBoolean(body, "requires_reconsent"),
        ...termsInput(body),
      }),
    }),
    kind: "object",
    status: 201,
  },
  update("PUT"),
  update("PATCH"),
  deleteRoute(TERMS, "Delete a terms-of-service configuration", "deleteOfferingTermsOfService"),
  {
    method: "GET",
    path: `${CONSENTS}/`,
    summary: "List consents (own; staff and support all)",
    document: `query($first: Int, $offset: Int, $filter: UserOfferingConsentFilter, $orderBy: [UserOfferingConsentOrder!]) {
      userOfferingConsents(first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) { totalCount nodes { ...ConsentRest } } }`,
    variables: ({ query }) =>
      compact({
        filter: compact({ userUuid: uuidParam(query, "user_uuid"), offeringUuid: uuidParam(query, "offering_uuid"), version: queryValue(query, "version") }),
        orderBy: ordering(query, CONSENT_ORDER),
      }),
    kind: "list",
  },
  retrieveRoute(CONSENTS, "Retrieve a consent", "userOfferingConsent", "ConsentRest"),
  {
    method: "POST",
    path: `${CONSENTS}/`,
    summary: "Consent to an offering's active terms: {offering: <uuid>}",
    document: `mutation($offering: ID!) { grantOfferingConsent(offeringUuid: $offering) { ...ConsentRest } }`,
    variables: ({ body }) => ({ offering: hyperlink(body.offering, "offering", "marketplace-provider-offerings") }),
    kind: "object",
    status: 201,
  },
  {
    method: "POST",
    path: `${CONSENTS}/:uuid/revoke/`,
    summary: "Revoke a consent (its owner or staff)",
    document: `mutation($uuid: ID!) { revokeOfferingConsent(uuid: $uuid) { ...ConsentRest } }`,
    variables: byUuid,
    kind: "object",
  },
];
