import type { ScopeType } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import { builder, nodeOrNull } from "../graphql/builder.ts";
import { toHex } from "../platform/ids.ts";
import { permissionsOn, providerCustomersWhere, type RoleHeld, rolesHeld } from "./service-viewer.ts";
import { RoleEnum, RoleScopeEnum } from "./schema-roles.ts";
import { findMany } from "../platform/reads/sql/find.ts";

const PermissionEnum = builder.enumType(Permission, {
  name: "Permission",
  description: "What a role allows; each role's permissions are listed in src/auth/permissions.ts",
});

const NODE_TYPE_OF_SCOPE: Record<ScopeType, string> = { CUSTOMER: "Customer", PROJECT: "Project", OFFERING: "Offering" };

const ViewerRoleRef = builder.objectRef<RoleHeld>("ViewerRole").implement({
  description: "A role grant in force: the role, and the customer, project or offering it is held on",
  fields: (t) => ({
    role: t.field({ type: RoleEnum, resolve: (grant) => grant.role }),
    scopeType: t.field({ type: RoleScopeEnum, resolve: (grant) => grant.scopeType }),
    scopeUuid: t.string({ resolve: (grant) => toHex(grant.scopeId) }),
    scope: t.field({
      type: builder.nodeInterfaceRef(),
      nullable: true,
      description: "The customer, project or offering; null once deleted or when the viewer may not see it",
      resolve: (grant, _a, ctx, info) => nodeOrNull(ctx, info, { typename: NODE_TYPE_OF_SCOPE[grant.scopeType], id: grant.scopeId }),
    }),
    expirationTime: t.expose("expirationTime", { type: "DateTime", nullable: true }),
  }),
});

const READABLE_BY =
  "Only for the viewer themself, or when the viewer is staff or support; empty for anyone else's user.";

/** What the user's access is worked out from (src/auth/access.ts `Viewer`): declared, so it is loaded whatever the User type's own columns. */
const ACCESS_COLUMNS = { username: true, isStaff: true, isSupport: true } as const;

builder.prismaObjectFields("User", (t) => ({
  roles: t.field({
    type: [ViewerRoleRef],
    select: ACCESS_COLUMNS,
    description: `The user's role grants in force, oldest first. ${READABLE_BY}`,
    resolve: (user, _a, ctx) => rolesHeld(ctx, user),
  }),
  providers: t.prismaField({
    type: ["Customer"],
    select: ACCESS_COLUMNS,
    description:
      "Customers on whose provider side the user holds a role: owner, manager or support of a customer that is a " +
      `service provider, or manager of one of a customer's offerings. Staff hold no role by being staff. ${READABLE_BY}`,
    resolve: async (query, user, _a, ctx) => {
      const where = await providerCustomersWhere(ctx, user);
      return where ? findMany(ctx.db, "customer", { ...query, where, orderBy: [{ name: "asc" }, { id: "asc" }] }) : [];
    },
  }),
  permissionsOn: t.field({
    type: [PermissionEnum],
    select: ACCESS_COLUMNS,
    description:
      "The permissions the user holds on the object, through a role on it or on its customer (staff hold every one); " +
      `empty when the object does not exist or the viewer may not see it. ${READABLE_BY}`,
    args: {
      scopeUuid: t.arg.id({ required: true }),
      scopeType: t.arg({ type: RoleScopeEnum, required: true }),
    },
    resolve: (user, { scopeUuid, scopeType }, ctx) => permissionsOn(ctx, user, { type: scopeType, uuid: String(scopeUuid) }),
  }),
}));
