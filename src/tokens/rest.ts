import { readTokenLifetime } from "./service.ts";
import { COLLECTIONS } from "../collections/rest-paths.ts";
import { bodyField, defineBody, withBody } from "../../rest-adapter/body-contract.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { pathId } from "../../rest-adapter/common-routes.ts";
import type { RestSurface } from "../../rest-adapter/surface.ts";

const USERS = `/api/${COLLECTIONS.user}`;

/** Waldur's UserAuthTokenSerializer. */
const userAuthToken = ({ token, created, user }: { token: string; created: string; user: Record<string, unknown> }) => ({
  created,
  user_first_name: user.first_name,
  user_last_name: user.last_name,
  user_username: user.username,
  user_is_active: user.is_active,
  user_token_lifetime: user.token_lifetime,
  token,
});

const USER_UPDATE = defineBody({
  token_lifetime: bodyField(
    {},
    { type: ["integer", "null"], minimum: 60, description: "Seconds a token may stay unused before it expires; null: never" },
    readTokenLifetime,
  ),
});

const tokenRoutes: RouteSpec[] = [
  {
    method: "POST",
    path: "/api-auth/logout/",
    summary: "Log out: revoke the token of this request (its WebSockets and SSE streams are closed)",
    document: `mutation { logout { user { uuid } } }`,
    kind: "empty",
    status: 204,
  },
  {
    method: "POST",
    path: `${USERS}/:uuid/refresh_token/`,
    summary: "Refresh a user's auth token (staff): every token of the user is revoked and a new one issued",
    document: `mutation($uuid: ID!) { refreshUserToken(input: { userUuid: $uuid }) {
      token created user { first_name: firstName last_name: lastName username is_active: isActive token_lifetime: tokenLifetime } } }`,
    variables: ({ params }) => ({ uuid: params.uuid }),
    kind: "object",
    status: 201,
    shape: userAuthToken,
  },
  {
    method: "PATCH",
    path: `${USERS}/:uuid/`,
    summary: "Update a user (the user themself, or staff); only token_lifetime is modelled",
    document: `mutation($id: ID!, $tokenLifetime: Int) { updateUser(input: { id: $id, tokenLifetime: $tokenLifetime }) { ...UserRest token_lifetime: tokenLifetime } }`,
    ...withBody(USER_UPDATE, (input, request) => ({ id: pathId("User", request), ...input })),
    kind: "object",
  },
];

export const tokenRest: RestSurface = { routes: tokenRoutes, fragments: [] };
