import { Role } from "../auth/permissions.ts";
import { COLLECTIONS } from "../collections/rest-paths.ts";
import { fieldError } from "../platform/errors.ts";
import { bodyField, dateTime, defineBody, link, text, withBody } from "../../rest-adapter/body-contract.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";

const SCOPES = [
  { base: `/api/${COLLECTIONS.customer}`, scopeType: "CUSTOMER" },
  { base: `/api/${COLLECTIONS.project}`, scopeType: "PROJECT" },
  { base: `/api/${COLLECTIONS.offering}`, scopeType: "OFFERING" },
] as const;

/** GraphQL's Role value of each of Waldur's role names. */
const ROLE_VALUES = new Map<string, string>(Object.entries(Role).map(([value, waldurName]) => [waldurName, value]));

/** A role by Waldur's name ("PROJECT.ADMIN"), read as the GraphQL enum value (PROJECT_ADMIN). */
const role = bodyField({ required: true }, { type: "string" }, (value, name) => {
  const waldurName = text({ required: true }).read(value, name);
  const role = ROLE_VALUES.get(waldurName);
  if (!role) throw fieldError(name, `"${waldurName}" is not a valid role for this object.`);
  return role;
});

const ROLE_GRANT = defineBody({
  user: link("user", { required: true, as: "userUuid" }),
  role,
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
    document: `mutation($input: RoleInput!) { grantRole(input: $input) { role: roleName expiration_time: expirationTime user: user { uuid } } }`,
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
    document: `mutation($input: RoleInput!) { revokeRole(input: $input) { uuid } }`,
    ...roleInput(scopeType),
    kind: "empty",
  } satisfies RouteSpec,
]);
