import { OFFERING_USER_OPERATIONS, OFFERING_USER_TRANSITIONS, storesComment } from "./transitions.ts";
import { COLLECTIONS } from "../collections/rest-paths.ts";
import { defineBody, link, text, withBody } from "../../rest-adapter/body-contract.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { byId, createRoute, deleteRoute, listRoute, pathId, retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { offeringUserCollection } from "./schema.ts";

const OFFERING_USER_REST_FRAGMENT = restFragment(
  "OfferingUserRest",
  "OfferingUser",
  `url uuid username state: stateLabel runtime_state: runtimeStateLabel
   offering: offeringUrl offering_uuid: offeringUuid offering_name: offeringName offering_has_active_tos: offeringHasActiveTos
   user: userUrl user_uuid: userUuid user_username: userUsername user_full_name: userFullName
   user_first_name: userFirstName user_last_name: userLastName user_email: userEmail
   customer_uuid: customerUuid customer_name: customerName is_restricted: isRestricted
   service_provider_comment: serviceProviderComment service_provider_comment_url: serviceProviderCommentUrl
   backend_metadata: backendMetadata has_consent: hasConsent requires_reconsent: requiresReconsent created modified`,
);

const OFFERING_USERS = `/api/${COLLECTIONS.offeringUser}`;

/** Waldur accepts `offering`+`user` URLs or `offering_uuid`+`user_uuid`, never both or neither. */
const OFFERING_USER_CREATE = defineBody(
  {
    offering: link("offering", { as: "offeringUuid" }),
    user: link("user", { as: "userUuid" }),
    offering_uuid: link("offering", { as: "offeringUuid", description: "uuid of the offering (its URL works too)" }),
    user_uuid: link("user", { as: "userUuid", description: "uuid of the user (its URL works too)" }),
    username: text(),
  },
  {
    groups: [
      ["offering", "user"],
      ["offering_uuid", "user_uuid"],
    ],
    both: "Specify either offering and user URLs or offering_uuid and user_uuid, not both.",
    neither: "Specify offering and user, or offering_uuid and user_uuid.",
  },
);


const USERNAME = defineBody({ username: text() });
const COMMENTS = defineBody({ service_provider_comment: text(), service_provider_comment_url: text() });
const TRANSITION_COMMENT = defineBody({ comment: text(), comment_url: text() });

const update = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${OFFERING_USERS}/:uuid/`,
  summary: "Push back the local username (a new one moves a user still being created to OK)",
  document: `mutation($id: ID!, $username: String) { updateOfferingUser(input: { id: $id, username: $username }) { ...OfferingUserRest } }`,
  ...withBody(USERNAME, (input, request) => ({ id: pathId("OfferingUser", request), ...input })),
  kind: "object",
});

const transitions = OFFERING_USER_OPERATIONS.map((operation): RouteSpec => {
  const { mutation } = OFFERING_USER_TRANSITIONS[operation];
  const route = { method: "POST", path: `${OFFERING_USERS}/:uuid/${operation}/`, summary: `Offering user operation ${operation}`, kind: "empty" } as const;
  if (!storesComment(operation)) return { ...route, document: `mutation($id: ID!) { ${mutation}(input: { id: $id }) { uuid } }`, variables: byId("OfferingUser") };
  return {
    ...route,
    document: `mutation($id: ID!, $comment: String, $commentUrl: String) { ${mutation}(input: { id: $id, comment: $comment, commentUrl: $commentUrl }) { uuid } }`,
    ...withBody(TRANSITION_COMMENT, (input, request) => ({ id: pathId("OfferingUser", request), ...input })),
  };
});

const offeringUserRoutes: RouteSpec[] = [
  listRoute({ path: `${OFFERING_USERS}/`, summary: "List offering users", collection: offeringUserCollection }),
  createRoute(`${OFFERING_USERS}/`, "Create an offering user", "createOfferingUser", "OfferingUserRest", OFFERING_USER_CREATE),
  retrieveRoute(OFFERING_USERS, "Retrieve an offering user", offeringUserCollection),
  update("PUT"),
  update("PATCH"),
  deleteRoute(OFFERING_USERS, "Delete an offering user", offeringUserCollection),
  {
    method: "PATCH",
    path: `${OFFERING_USERS}/:uuid/update_comments/`,
    summary: "Update the service-provider comment and its URL; the state does not change",
    document: `mutation($id: ID!, $serviceProviderComment: String, $serviceProviderCommentUrl: String) {
      updateOfferingUserComments(input: { id: $id, serviceProviderComment: $serviceProviderComment, serviceProviderCommentUrl: $serviceProviderCommentUrl }) {
        service_provider_comment: serviceProviderComment service_provider_comment_url: serviceProviderCommentUrl } }`,
    ...withBody(COMMENTS, (input, request) => ({ id: pathId("OfferingUser", request), ...input })),
    kind: "object",
  },
  ...transitions,
];

export const offeringUserRest: RestSurface = { routes: offeringUserRoutes, fragments: [OFFERING_USER_REST_FRAGMENT] };
