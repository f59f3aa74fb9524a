import { isRole, Role } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { absentFlag, commaList, defineContract, postgresNulls, unmodelled } from "../collections/contract.ts";
import { parseUuid } from "../platform/ids.ts";
import { icontains, iexact } from "../platform/reads/text-match.ts";
import { byTimestamps } from "../collections/timestamp-filters.ts";
import { grantedScopeIds, grantsInForce } from "./grants-in-force.ts";
import { findMany } from "../platform/reads/sql/find.ts";

type Where = Prisma.ProjectWhereInput;

const NOTHING: Where = { id: { in: [] } };
const EVERYTHING: Where = {};
/** A Waldur concept not modelled here (affiliations, science domains, soft deletion): no project has it. */
const noProjectHas = absentFlag(NOTHING);

/** Projects the given users could list (Waldur's GenericUserFilter): staff and support see all. */
async function visibleToUsers(ctx: Context, userIds: string[]): Promise<Where> {
  const users = await findMany(ctx.db, "user", { where: { id: { in: userIds } }, select: { id: true, isStaff: true, isSupport: true } });
  if (users.some((user) => user.isStaff || user.isSupport)) return EVERYTHING;
  const [projects, customers] = await Promise.all(
    (["PROJECT", "CUSTOMER"] as const).map((scope) => grantedScopeIds(ctx, grantsInForce(ctx.now(), scope, { userIds }))),
  );
  return { OR: [{ id: { in: projects } }, { customerId: { in: customers } }] };
}

/** Today in UTC, as Django compares a DateField with `timezone.now()`. */
const today = (ctx: Context) => new Date(ctx.now().toISOString().slice(0, 10));

export const PROJECT_CONTRACT = defineContract<Where, Prisma.ProjectOrderByWithRelationInput, Context>()({
  filters: {
    customerUuid: {
      kind: "uuids",
      rest: { customer: { url: "customer" }, customer_uuid: "uuid" },
      description: "Projects of these customers",
      where: (ids) => ({ customerId: { in: ids } }),
    },
    name: { kind: "text", rest: "name", description: "Case-insensitive substring", where: (name) => ({ name: icontains(name) }) },
    nameExact: { kind: "text", rest: "name_exact", description: "Exact, case-sensitive", where: (name) => ({ name }) },
    slug: { kind: "text", rest: "slug", description: "Exact", where: (slug) => ({ slug }) },
    description: { kind: "text", rest: "description", where: (text) => ({ description: icontains(text) }) },
    customerName: { kind: "text", rest: "customer_name", where: (text) => ({ customer: { name: icontains(text) } }) },
    customerAbbreviation: {
      kind: "text",
      rest: "customer_abbreviation",
      where: (text) => ({ customer: { abbreviation: icontains(text) } }),
    },
    customerNativeName: {
      kind: "text",
      rest: "customer_native_name",
      description: "Customers here have no native name: matches nothing",
      where: () => NOTHING,
    },
    backendId: { kind: "text", rest: "backend_id", description: "Projects here have no backend id: matches nothing", where: () => NOTHING },
    ...byTimestamps(),
    query: {
      kind: "text",
      rest: "query",
      description: "A uuid, or a name or slug substring; or a resource's exact name or backend id",
      where: (text) => {
        const value = text.trim();
        const id = parseUuid(value);
        if (id) return { OR: [{ id }, { resources: { some: { backendId: value } } }] };
        return {
          OR: [
            { name: icontains(value) },
            { slug: icontains(value) },
            { resources: { some: { name: value } } },
            { resources: { some: { backendId: iexact(value) } } },
          ],
        };
      },
    },
    canManage: {
      kind: "boolean",
      rest: "can_manage",
      description: "Projects the viewer manages or whose customer they own (either value applies it, as in Waldur)",
      where: () => async (ctx) => ({
        OR: [
          { customerId: { in: await ctx.access.scopeIds("CUSTOMER", [Role.CUSTOMER_OWNER]) } },
          { id: { in: await ctx.access.scopeIds("PROJECT", [Role.PROJECT_MANAGER]) } },
        ],
      }),
    },
    canAdmin: {
      kind: "boolean",
      rest: "can_admin",
      description: "Projects the viewer administers (either value applies it, as in Waldur)",
      where: () => async (ctx) => ({ id: { in: await ctx.access.scopeIds("PROJECT", [Role.PROJECT_ADMIN]) } }),
    },
    currentUserHasRole: {
      kind: "texts",
      rest: "current_user_has_role",
      description: "Projects on which the viewer holds one of these roles (PROJECT.ADMIN, …; comma-separated or repeated)",
      where: (values) => {
        const roles = commaList(values).filter(isRole);
        return async (ctx) => ({ id: { in: await ctx.access.scopeIds("PROJECT", roles) } });
      },
    },
    userUuid: {
      kind: "uuids",
      rest: { user_uuid: "uuid" },
      description: "Projects these users could list",
      where: (ids) => (ctx) => visibleToUsers(ctx, ids),
    },
    userUuidWithActiveRole: {
      kind: "uuids",
      rest: { user_uuid_with_active_role: "uuid" },
      description: "Projects on which these users hold a role",
      where: (ids) => async (ctx) => ({ id: { in: await grantedScopeIds(ctx, grantsInForce(ctx.now(), "PROJECT", { userIds: ids })) } }),
    },
    concealFinishedProjects: {
      kind: "boolean",
      rest: "conceal_finished_projects",
      description: "true: leaves out projects whose end date has passed",
      where: (conceal) =>
        conceal ? async (ctx) => ({ OR: [{ endDate: null }, { endDate: { gte: today(ctx) } }] }) : EVERYTHING,
    },
    accountingIsRunning: {
      kind: "boolean",
      rest: "accounting_is_running",
      description: "No customer here has an accounting start date ahead: true matches every project, false none",
      where: (running) => (running ? EVERYTHING : NOTHING),
    },
    includeTerminated: {
      kind: "boolean",
      rest: "include_terminated",
      description: "Projects are never soft-deleted here, so the list is the same either way",
      where: () => EVERYTHING,
    },
    isRemoved: { kind: "boolean", rest: "is_removed", description: "No project is removed here", where: noProjectHas },
    hasAffiliation: { kind: "boolean", rest: "has_affiliation", description: "No project has an affiliation here", where: noProjectHas },
    affiliationName: { kind: "text", rest: "affiliation_name", ...unmodelled("Affiliations", NOTHING) },
    affiliationUuid: { kind: "uuids", rest: { affiliation_uuid: "uuids" }, ...unmodelled("Affiliations", NOTHING) },
    scienceDomainUuid: { kind: "uuids", rest: { science_domain_uuid: "uuid" }, ...unmodelled("Science domains", NOTHING) },
    scienceSubDomainUuid: { kind: "uuids", rest: { science_sub_domain_uuid: "uuid" }, ...unmodelled("Science domains", NOTHING) },
  },
  orderings: {
    name: (direction) => ({ name: direction }),
    created: (direction) => ({ created: direction }),
    customer_name: (direction) => ({ customer: { name: direction } }),
    customer_abbreviation: (direction) => ({ customer: { abbreviation: direction } }),
    end_date: (direction) => ({ endDate: postgresNulls(direction) }),
    // No customer has a native name, no project a start date or a cost estimate here: every project ties.
    customer_native_name: () => ({}),
    start_date: () => ({}),
    estimated_cost: () => ({}),
  },
  defaultOrder: ["name"],
  tiebreak: [{ id: "asc" }],
});
