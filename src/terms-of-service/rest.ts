import { COLLECTIONS } from "../collections/rest-paths.ts";
import { defineBody, flag, integer, link, text, withBody } from "../../rest-adapter/body-contract.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { byId, deleteRoute, listRoute, pathId, retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { termsCollection } from "./schema.ts";
import { consentCollection } from "./schema-consents.ts";

const TERMS_OF_SERVICE_REST_FRAGMENT = restFragment(
  "TermsOfServiceRest",
  "OfferingTermsOfService",
  `uuid offering_uuid: offeringUuid offering_name: offeringName terms_of_service: termsOfService
   terms_of_service_link: termsOfServiceLink version is_active: isActive requires_reconsent: requiresReconsent
   grace_period_days: gracePeriodDays
   user_consent: userConsent { uuid version agreement_date: agreementDate is_revoked: isRevoked }
   has_user_consent: hasUserConsent created modified`,
);

const CONSENT_REST_FRAGMENT = restFragment(
  "ConsentRest",
  "UserOfferingConsent",
  `uuid user_uuid: userUuid offering_uuid: offeringUuid agreement_date: agreementDate version
   revocation_date: revocationDate created modified user_username: userUsername user_full_name: userFullName
   user_email: userEmail offering_name: offeringName offering_slug: offeringSlug offering_url: offeringUrl
   has_consent: hasConsent requires_reconsent: requiresReconsent collected_attributes: collectedAttributes`,
);

const TERMS = `/api/${COLLECTIONS.termsOfService}`;
const CONSENTS = `/api/${COLLECTIONS.consent}`;

/** The fields a PUT/PATCH may change; `version` and `requires_reconsent` are ignored (fixed at creation). */
const CHANGEABLE = {
  terms_of_service: text(),
  terms_of_service_link: text(),
  is_active: flag(),
  grace_period_days: integer(),
} as const;

const TERMS_UPDATE = defineBody(CHANGEABLE);

const TERMS_CREATE = defineBody({
  offering: link("offering", { required: true, as: "offeringUuid" }),
  version: text(),
  requires_reconsent: flag(),
  ...CHANGEABLE,
});

const CONSENT_GRANT = defineBody({ offering: link("offering", { required: true, as: "offeringUuid" }) });

const update = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${TERMS}/:uuid/`,
  summary: "Update terms of service (version and requires_reconsent stay as created)",
  document: `mutation($input: TermsOfServiceInput!) { updateOfferingTermsOfService(input: $input) { ...TermsOfServiceRest } }`,
  ...withBody(TERMS_UPDATE, (input, request) => ({ input: { id: pathId("OfferingTermsOfService", request), ...input } })),
  kind: "object",
});

const termsOfServiceRoutes: RouteSpec[] = [
  listRoute({ path: `${TERMS}/`, summary: "List terms-of-service configurations visible to the caller", collection: termsCollection }),
  retrieveRoute(TERMS, "Retrieve a terms-of-service configuration", termsCollection),
  {
    method: "POST",
    path: `${TERMS}/`,
    summary: "Create a terms-of-service configuration (UPDATE_OFFERING on the offering or its customer)",
    document: `mutation($input: CreateTermsOfServiceInput!) {
      createOfferingTermsOfService(input: $input) { ...TermsOfServiceRest offering: offeringUrl } }`,
    ...withBody(TERMS_CREATE, (input) => ({ input })),
    kind: "object",
    status: 201,
  },
  update("PUT"),
  update("PATCH"),
  deleteRoute(TERMS, "Delete a terms-of-service configuration", termsCollection),
  listRoute({
    path: `${CONSENTS}/`,
    summary: "List consents (own; staff and support all)",
    collection: consentCollection,
    fragment: "ConsentRest",
  }),
  retrieveRoute(CONSENTS, "Retrieve a consent", consentCollection, "ConsentRest"),
  {
    method: "POST",
    path: `${CONSENTS}/`,
    summary: "Consent to an offering's active terms: {offering: <uuid>}",
    document: `mutation($offeringUuid: ID!) { grantOfferingConsent(input: { offeringUuid: $offeringUuid }) { ...ConsentRest offering: offeringUuid } }`,
    ...withBody(CONSENT_GRANT, (input) => input),
    kind: "object",
    status: 201,
  },
  {
    method: "POST",
    path: `${CONSENTS}/:uuid/revoke/`,
    summary: "Revoke a consent (its owner or staff)",
    document: `mutation($id: ID!) { revokeOfferingConsent(input: { id: $id }) { ...ConsentRest } }`,
    variables: byId("UserOfferingConsent"),
    kind: "object",
  },
];

export const termsOfServiceRest: RestSurface = {
  routes: termsOfServiceRoutes,
  fragments: [TERMS_OF_SERVICE_REST_FRAGMENT, CONSENT_REST_FRAGMENT],
};
