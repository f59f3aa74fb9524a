import { compact, hyperlink, optionalDateTime, requiredString } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";

const SCOPES = [
  { base: "/api/customers", scopeType: "CUSTOMER" },
  { base: "/api/projects", scopeType: "PROJECT" },
  { base: "/api/marketplace-provider-offerings", scopeType: "OFFERING" },
] as const;

const roleInput = (scopeType: string) => ({ params, body }: RestRequest) => ({
  input: compact({
    scopeType,
    scopeUuid: params.uuid,
    userUuid: hyperlink(body.user, "user", "users"),
    role: requiredString(body, "role"),
    expirationTime: optionalDateTime(body, "expiration_time") ?? undefined,
  }),
});

/** add_user / delete_user on customers, projects and offerings: `{user, role, expiration_time?}`. */
export const roleRoutes: RouteSpec[] = SCOPES.flatMap(({ base, scopeType }) => [
  {
    method: "POST",
    path: `${base}/:uuid/add_user/`,
    summary: `Grant a user a role on this ${scopeType.toLowerCase()}`,
    document: `mutation($input: RoleInput!) { grantRole(input: $input) { role expiration_time: expirationTime user: user { uuid } } }`,
    variables: roleInput(scopeType),
    kind: "object",
    status: 201,
    shape: (grant: { role: string; expiration_time: string | null; user: { uuid: string } }) => ({
      user: grant.user.uuid,
      role: grant.role,
      expiration_time: grant.expiration_time,
    }),
  } satisfies RouteSpec,
  {
    method: "POST",
    path: `${base}/:uuid/delete_user/`,
    summary: `Revoke a user's role on this ${scopeType.toLowerCase()}`,
    document: `mutation($input: RoleInput!) { revokeRole(input: $input) }`,
    variables: roleInput(scopeType),
    kind: "empty",
  } satisfies RouteSpec,
]);
