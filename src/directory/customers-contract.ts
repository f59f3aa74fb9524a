import { isRole, Permission, Role, ROLE_PERMISSIONS, ROLE_SCOPE, ROLES } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { absentFlag, commaList, defineContract, emptyField, type Narrowing } from "../collections/contract.ts";
import { parseUuid } from "../platform/ids.ts";
import { icontains } from "../platform/reads/text-match.ts";
import { grantedScopeIds, grantsInForce } from "./grants-in-force.ts";
import { findMany } from "../platform/reads/sql/find.ts";

type CustomerWhere = Prisma.CustomerWhereInput;
type CustomerOrder = Prisma.CustomerOrderByWithRelationInput;

const NOTHING: CustomerWhere = { id: { in: [] } };

const PROJECT_CREATORS = ROLES.filter(
  (role) => ROLE_SCOPE[role] === "CUSTOMER" && ROLE_PERMISSIONS[role].includes(Permission.CREATE_PROJECT),
);

/** Customers on which the viewer holds one of `roles` (in force); `false` narrows nothing, as in Waldur. */
const viewerHolds =
  (roles: readonly Role[]) =>
  (value: boolean): Narrowing<CustomerWhere, Context> =>
    value ? async (ctx) => ({ id: { in: await ctx.access.scopeIds("CUSTOMER", roles) } }) : {};

/** The customers a user sees in the list (Waldur's `user_uuid`): a role in force on it, one of its projects or offerings. */
const seenBy =
  (userIds: string[]): Narrowing<CustomerWhere, Context> =>
  async (ctx) => {
    const users = await findMany(ctx.db, "user", { where: { id: { in: userIds } }, select: { isStaff: true, isSupport: true } });
    if (users.length === 0) return NOTHING;
    if (users.some((user) => user.isStaff || user.isSupport)) return {};
    const now = ctx.now();
    const [customers, projects, offerings] = await Promise.all(
      (["CUSTOMER", "PROJECT", "OFFERING"] as const).map((type) => grantedScopeIds(ctx, grantsInForce(now, type, { userIds }))),
    );
    return {
      OR: [{ id: { in: customers } }, { projects: { some: { id: { in: projects } } } }, { offerings: { some: { id: { in: offerings } } } }],
    };
  };

/** A Waldur text field we do not store on customers. */
const unstored = <R extends string>(rest: R) => ({
  kind: "text" as const,
  rest,
  description: "Not stored here: matches only the empty value",
  where: emptyField(NOTHING),
});

export const CUSTOMER_CONTRACT = defineContract<CustomerWhere, CustomerOrder | CustomerOrder[], Context>()({
  filters: {
    name: { kind: "text", rest: "name", description: "Substring, case-insensitive", where: (name) => ({ name: icontains(name) }) },
    nameExact: { kind: "text", rest: "name_exact", description: "Exact, case-sensitive", where: (name) => ({ name }) },
    abbreviation: {
      kind: "text",
      rest: "abbreviation",
      description: "Substring, case-insensitive",
      where: (text) => ({ abbreviation: icontains(text) }),
    },
    slug: { kind: "text", rest: "slug", description: "Exact", where: (slug) => ({ slug }) },
    query: {
      kind: "text",
      rest: "query",
      description: "Substring of the name or abbreviation, or the uuid",
      where: (text) => {
        const id = parseUuid(text);
        return { OR: [{ name: icontains(text) }, { abbreviation: icontains(text) }, ...(id ? [{ id }] : [])] };
      },
    },
    nativeName: unstored("native_name"),
    contactDetails: unstored("contact_details"),
    agreementNumber: unstored("agreement_number"),
    registrationCode: unstored("registration_code"),
    backendId: unstored("backend_id"),
    organizationGroupName: {
      kind: "text",
      rest: "organization_group_name",
      description: "No organisation groups here: matches nothing",
      where: emptyField(NOTHING),
    },
    organizationGroupUuid: {
      kind: "uuids",
      rest: { organization_group_uuid: "uuids" },
      description: "No organisation groups here: matches nothing",
      where: () => NOTHING,
    },
    archived: { kind: "boolean", rest: "archived", description: "No customer is archived here", where: absentFlag(NOTHING) },
    isCallManagingOrganization: {
      kind: "boolean",
      rest: "is_call_managing_organization",
      description: "No call-managing organisations here",
      where: absentFlag(NOTHING),
    },
    isServiceProvider: {
      kind: "boolean",
      rest: "is_service_provider",
      where: (is) => (is ? { serviceProvider: { isNot: null } } : { serviceProvider: { is: null } }),
    },
    serviceProviderUuid: {
      kind: "uuids",
      rest: { service_provider_uuid: "uuid" },
      where: (ids) => ({ serviceProvider: { is: { id: { in: ids } } } }),
    },
    hasResources: {
      kind: "boolean",
      rest: "has_resources",
      description: "Has a resource that is not terminated in one of its projects",
      where: (has) => {
        const some = { projects: { some: { resources: { some: { state: { not: "TERMINATED" as const } } } } } };
        return has ? some : { NOT: some };
      },
    },
    accountingIsRunning: {
      kind: "boolean",
      rest: "accounting_is_running",
      description: "Accounting starts when the customer is created",
      where: (running) => async (ctx) => ({ created: running ? { lte: ctx.now() } : { gt: ctx.now() } }),
    },
    userUuid: {
      kind: "uuids",
      rest: { user_uuid: "uuid" },
      description: "The customers this user sees: a role on it, one of its projects or offerings (staff and support: all)",
      where: seenBy,
    },
    ownedByCurrentUser: {
      kind: "boolean",
      rest: "owned_by_current_user",
      description: "Customers the viewer owns",
      where: viewerHolds([Role.CUSTOMER_OWNER]),
    },
    currentUserHasRole: {
      kind: "texts",
      rest: "current_user_has_role",
      description: "Customers on which the viewer holds one of these roles (comma-separated or repeated)",
      where: (names) => viewerHolds(commaList(names).filter(isRole))(true),
    },
    currentUserHasProjectCreatePermission: {
      kind: "boolean",
      rest: "current_user_has_project_create_permission",
      description: "Customers in which the viewer may create projects (staff: all)",
      where: (value) => async (ctx) => {
        if (!value || ctx.access.isStaff) return {};
        return { id: { in: await ctx.access.scopeIds("CUSTOMER", PROJECT_CREATORS) } };
      },
    },
  },
  orderings: {
    name: (direction) => ({ name: direction }),
    abbreviation: (direction) => ({ abbreviation: direction }),
    created: (direction) => ({ created: direction }),
    accounting_start_date: (direction) => ({ created: direction }),
    // Equal on every customer here: the order falls to the tiebreak.
    agreement_number: () => [],
    contact_details: () => [],
    native_name: () => [],
    registration_code: () => [],
  },
  defaultOrder: ["name"],
  tiebreak: [{ name: "asc" }, { id: "asc" }],
});
