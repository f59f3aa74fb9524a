import { COLLECTIONS } from "../../src/platform/collections.ts";
import { dateTime, defineBody, link, text, withBody } from "../body-contract.ts";
import type { RouteSpec } from "../route.ts";

const SCOPES = [
  { base: `/api/${COLLECTIONS.customer}`, scopeType: "CUSTOMER" },
  { base: `/api/${COLLECTIONS.project}`, scopeType: "PROJECT" },
  { base: `/api/${COLLECTIONS.offering}`, scopeType: "OFFERING" },
] as const;

const ROLE_GRANT = defineBody({
  user: link("user", { required: true, as: "userUuid" }),
  role: text({ required: true }),
  expiration_time: dateTime({ absent: [null] }),
});

const roleInput = (scopeType: string) =>
  withBody(ROLE_GRANT, (input, { params }) => ({ input: { scopeType, scopeUuid: params.uuid, ...input } }));

/** add_user / delete_user on customers, projects and offerings: `{user, role, expiration_time?}`. */
export const roleRoutes: RouteSpec[] = SCOPES.flatMap(({ base, scopeType }) => [
  {
    method: "POST",
    path: `${base}/:uuid/add_user/`,
    summary: `Grant a user a role on this ${scopeType.toLowerCase()}`,
    document: `mutation($input: RoleInput!) { grantRole(input: $input) { role expiration_time: expirationTime user: user { uuid } } }`,
    ...roleInput(scopeType),
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
    ...roleInput(scopeType),
    kind: "empty",
  } satisfies RouteSpec,
]);
