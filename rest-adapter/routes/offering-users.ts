import { OFFERING_USER_CONTRACT } from "../../src/offering-users/contract.ts";
import {
  OFFERING_USER_OPERATIONS,
  storesComment,
  transitionMutationName,
} from "../../src/offering-users/transitions.ts";
import { fieldError } from "../../src/platform/errors.ts";
import { compact, hyperlink, optionalString } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { deleteRoute, listRoute, retrieveRoute } from "./common.ts";

const BASE = "/api/marketplace-offering-users";

/** Waldur accepts `offering`+`user` URLs or `offering_uuid`+`user_uuid`, never both or neither. */
function createInput({ body }: RestRequest) {
  const byUrl = body.offering !== undefined || body.user !== undefined;
  const byUuid = body.offering_uuid !== undefined || body.user_uuid !== undefined;
  if (byUrl && byUuid) {
    throw fieldError("non_field_errors", "Specify either offering and user URLs or offering_uuid and user_uuid, not both.");
  }
  if (!byUrl && !byUuid) throw fieldError("non_field_errors", "Specify offering and user, or offering_uuid and user_uuid.");
  const offering = byUrl
    ? hyperlink(body.offering, "offering", "marketplace-provider-offerings")
    : hyperlink(body.offering_uuid, "offering_uuid", "marketplace-provider-offerings");
  const user = byUrl ? hyperlink(body.user, "user", "users") : hyperlink(body.user_uuid, "user_uuid", "users");
  return { input: compact({ offeringUuid: offering, userUuid: user, username: optionalString(body, "username") }) };
}

const update = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${BASE}/:uuid/`,
  summary: "Push back the local username (a new one moves a user still being created to OK)",
  document: `mutation($uuid: ID!, $username: String) { updateOfferingUser(uuid: $uuid, username: $username) { ...OfferingUserRest } }`,
  variables: ({ params, body }) => compact({ uuid: params.uuid, username: optionalString(body, "username") }),
  kind: "object",
});

const transitions: RouteSpec[] = OFFERING_USER_OPERATIONS.map((operation) => {
  const takesComment = storesComment(operation);
  return {
    method: "POST",
    path: `${BASE}/:uuid/${operation}/`,
    summary: `Offering user operation ${operation}`,
    document: takesComment
      ? `mutation($uuid: ID!, $comment: String, $commentUrl: String) { ${transitionMutationName(operation)}(uuid: $uuid, comment: $comment, commentUrl: $commentUrl) { uuid } }`
      : `mutation($uuid: ID!) { ${transitionMutationName(operation)}(uuid: $uuid) { uuid } }`,
    variables: ({ params, body }) =>
      takesComment
        ? compact({ uuid: params.uuid, comment: optionalString(body, "comment"), commentUrl: optionalString(body, "comment_url") })
        : { uuid: params.uuid },
    kind: "empty",
  };
});

export const offeringUserRoutes: RouteSpec[] = [
  listRoute({
    path: `${BASE}/`,
    summary: "List offering users",
    field: "offeringUsers",
    type: "OfferingUser",
    fragment: "OfferingUserRest",
    contract: OFFERING_USER_CONTRACT,
  }),
  {
    method: "POST",
    path: `${BASE}/`,
    summary: "Create an offering user",
    document: `mutation($input: CreateOfferingUserInput!) { createOfferingUser(input: $input) { ...OfferingUserRest } }`,
    variables: createInput,
    kind: "object",
    status: 201,
  },
  retrieveRoute(BASE, "Retrieve an offering user", "offeringUser", "OfferingUserRest"),
  update("PUT"),
  update("PATCH"),
  deleteRoute(BASE, "Delete an offering user", "deleteOfferingUser", "{ uuid }"),
  {
    method: "PATCH",
    path: `${BASE}/:uuid/update_comments/`,
    summary: "Update the service-provider comment and its URL; the state does not change",
    document: `mutation($uuid: ID!, $comment: String, $url: String) {
      updateOfferingUserComments(uuid: $uuid, serviceProviderComment: $comment, serviceProviderCommentUrl: $url) {
        service_provider_comment: serviceProviderComment service_provider_comment_url: serviceProviderCommentUrl } }`,
    variables: ({ params, body }) =>
      compact({
        uuid: params.uuid,
        comment: optionalString(body, "service_provider_comment"),
        url: optionalString(body, "service_provider_comment_url"),
      }),
    kind: "object",
  },
  ...transitions,
];
