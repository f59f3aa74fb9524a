import { ValidationError } from "../platform/errors.ts";
import { builder } from "../graphql/builder.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { Role } from "../auth/permissions.ts";
import { toHex } from "../platform/ids.ts";
import { getRoleGrant } from "./service-node-lookups.ts";
import { grantRole, type RoleInput, revokeRole, storedRole } from "./service-roles.ts";
import { ON_OBJECT, resultOr } from "../graphql/mutations.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";
import { findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export const RoleEnum = builder.enumType(Role, {
  name: "Role",
  description: "The roles a user can be granted on a customer, project or offering",
  values: Object.fromEntries(Object.entries(Role).map(([name, waldurName]) => [name, { description: `Waldur's "${waldurName}"` }])),
});

export const RoleScopeEnum = builder.enumType("RoleScope", { values: ["CUSTOMER", "PROJECT", "OFFERING"] as const });

export const RoleGrantRef = builder.prismaNode("RoleGrant", {
  ...visibleNode(getRoleGrant),
  fields: (t) => ({
    uuid: t.string({ resolve: (g) => toHex(g.id) }),
    role: t.field({ type: RoleEnum, resolve: (g) => storedRole(g.role) }),
    ...restPresentation({ roleName: t.exposeString("role", { description: "Waldur's name of the role, as REST shows it" }) }),
    scopeType: t.exposeString("scopeType"),
    scopeUuid: t.string({ resolve: (g) => toHex(g.scopeId) }),
    expirationTime: t.expose("expirationTime", { type: "DateTime", nullable: true }),
    isActive: t.exposeBoolean("isActive"),
    created: t.expose("created", { type: "DateTime" }),
    user: t.relation("user"),
  }),
});

const RoleInputRef = builder.inputType("RoleInput", {
  fields: (t) => ({
    scopeType: t.field({ type: RoleScopeEnum, required: true }),
    scopeUuid: t.id({ required: true }),
    userUuid: t.id({ required: true }),
    role: t.field({ type: RoleEnum, required: true, description: "A role of the kind of object `scopeType` names" }),
    expirationTime: t.field({ type: "DateTime" }),
  }),
});

const serviceInput = (input: typeof RoleInputRef.$inferInput): RoleInput => ({
  ...input,
  scopeUuid: String(input.scopeUuid),
  userUuid: String(input.userUuid),
});

builder.mutationFields((t) => ({
  grantRole: t.prismaField({
    type: "RoleGrant",
    ...resultOr(ON_OBJECT, ValidationError),
    args: { input: t.arg({ type: RoleInputRef, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const grant = await grantRole(ctx, serviceInput(input));
      return findUniqueOrThrow(ctx.db, "roleGrant", { ...query, where: { id: grant.id } });
    },
  }),
  revokeRole: t.prismaField({
    type: "RoleGrant",
    ...resultOr(ON_OBJECT, ValidationError),
    description: "End the user's grant of the role; answers the grant, no longer active",
    args: { input: t.arg({ type: RoleInputRef, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const grant = await revokeRole(ctx, serviceInput(input));
      return findUniqueOrThrow(ctx.db, "roleGrant", { ...query, where: { id: grant.id } });
    },
  }),
}));
