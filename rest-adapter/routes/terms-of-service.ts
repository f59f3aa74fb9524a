import { CONSENT_CONTRACT, TERMS_CONTRACT } from "../../src/terms-of-service/contract.ts";
import { fieldError } from "../../src/platform/errors.ts";
import { compact, hyperlink, optionalBoolean, optionalString } from "../input.ts";
import type { RouteSpec } from "../route.ts";
import { byUuid, deleteRoute, listRoute, retrieveRoute } from "./common.ts";

const TERMS = "/api/marketplace-offering-terms-of-service";
const CONSENTS = "/api/marketplace-user-offering-consents";

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

const update = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${TERMS}/:uuid/`,
  summary: "Update terms of service (version and requires_reconsent stay as created)",
  document: `mutation($uuid: ID!, $input: TermsOfServiceInput!) { updateOfferingTermsOfService(uuid: $uuid, input: $input) { ...TermsOfServiceRest } }`,
  variables: ({ params, body }) => ({ uuid: params.uuid, input: termsInput(body) }),
  kind: "object",
});

export const termsOfServiceRoutes: RouteSpec[] = [
  listRoute({
    path: `${TERMS}/`,
    summary: "List terms-of-service configurations visible to the caller",
    field: "offeringTermsOfServices",
    type: "TermsOfService",
    fragment: "TermsOfServiceRest",
    contract: TERMS_CONTRACT,
  }),
  retrieveRoute(TERMS, "Retrieve a terms-of-service configuration", "offeringTermsOfService", "TermsOfServiceRest"),
  {
    method: "POST",
    path: `${TERMS}/`,
    summary: "Create a terms-of-service configuration (UPDATE_OFFERING on the offering or its customer)",
    document: `mutation($input: CreateTermsOfServiceInput!) {
      createOfferingTermsOfService(input: $input) { ...TermsOfServiceRest offering: offeringUrl } }`,
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
  listRoute({
    path: `${CONSENTS}/`,
    summary: "List consents (own; staff and support all)",
    field: "userOfferingConsents",
    type: "UserOfferingConsent",
    fragment: "ConsentRest",
    contract: CONSENT_CONTRACT,
  }),
  retrieveRoute(CONSENTS, "Retrieve a consent", "userOfferingConsent", "ConsentRest"),
  {
    method: "POST",
    path: `${CONSENTS}/`,
    summary: "Consent to an offering's active terms: {offering: <uuid>}",
    document: `mutation($offering: ID!) { grantOfferingConsent(offeringUuid: $offering) { ...ConsentRest offering: offeringUuid } }`,
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
