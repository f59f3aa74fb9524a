import type { Context } from "../context.ts";
import type { OfferingState, Prisma } from "../generated/prisma/client.ts";
import { absentFlag, choiceFilter, commaList, defineContract, universalFlag, unmodelled, valuesByLabel } from "../collections/contract.ts";
import { fieldError } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import { icontains } from "../platform/reads/text-match.ts";
import { byTimestamps } from "../collections/timestamp-filters.ts";
import { grantedScopeIds, grantsInForce } from "./grants-in-force.ts";
import { count, findMany } from "../platform/reads/sql/find.ts";

type Where = Prisma.OfferingWhereInput;

const NOTHING: Where = { id: { in: [] } };

export const OFFERING_STATE_LABELS: Record<OfferingState, string> = {
  DRAFT: "Draft",
  ACTIVE: "Active",
  PAUSED: "Paused",
  ARCHIVED: "Archived",
};

/** Waldur's offering states; nothing makes an offering Unavailable here, but Waldur's clients may ask for it. */
export const OFFERING_STATE_CHOICES = { ...OFFERING_STATE_LABELS, UNAVAILABLE: "Unavailable" } as const;
export type OfferingStateChoice = keyof typeof OFFERING_STATE_CHOICES;

const isStoredState = (state: OfferingStateChoice): state is OfferingState => state in OFFERING_STATE_LABELS;

const STATE_BY_LABEL = valuesByLabel(OFFERING_STATE_CHOICES);

/** Resources that still hold their offering, for the resource_* filters (Waldur leaves out terminated ones). */
const LIVE_RESOURCE = { state: { not: "TERMINATED" as const } };

const EVERYTHING: Where = {};
/** A flag no offering has here: `true` matches none, `false` every one. */
const noOfferingHas = absentFlag(NOTHING);
/**
 * Offerings here are what Waldur creates by default, shared (open to every customer and project, without
 * organisation groups) and billable, which our create endpoint cannot change.
 */
const everyOfferingHas = universalFlag(NOTHING);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Waldur's `attributes` filter: a JSON object of attribute values; offerings here have no attributes. */
function attributesWhere(text: string): Where {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fieldError("attributes", "Filter attribute is not valid json.");
  }
  if (!isObject(value)) throw fieldError("attributes", "Filter attribute should be an dict.");
  return Object.keys(value).length ? NOTHING : EVERYTHING;
}

/** Offerings restricted (plugin_options.restricted_to_roles) to roles the viewer holds none of, in any scope. */
async function restrictedFromViewer(ctx: Context): Promise<Where> {
  const roles: string[] = (await ctx.access.grants()).map((grant) => grant.role);
  const offerings = await findMany(ctx.db, "offering", { select: { id: true, pluginOptions: true } });
  const restricted = offerings.filter(({ pluginOptions }) => {
    const only = isObject(pluginOptions) ? pluginOptions.restricted_to_roles : undefined;
    return Array.isArray(only) && only.length > 0 && !only.some((role) => roles.includes(String(role)));
  });
  return { id: { in: restricted.map(({ id }) => id) } };
}

export const OFFERING_CONTRACT = defineContract<Where, Prisma.OfferingOrderByWithRelationInput, Context>()({
  filters: {
    customerUuid: {
      kind: "uuids",
      rest: { customer: { url: "customer" }, customer_uuid: "uuid" },
      description: "Offerings of these customers",
      where: (ids) => ({ customerId: { in: ids } }),
    },
    uuidList: { kind: "uuids", rest: { uuid_list: "uuids" }, description: "Any of these offerings", where: (ids) => ({ id: { in: ids } }) },
    type: { kind: "texts", rest: "type", description: "Any of these types", where: (types) => ({ type: { in: types } }) },
    state: choiceFilter({
      rest: "state",
      labels: STATE_BY_LABEL,
      enumName: "OfferingState",
      description: "Any of these states",
      where: (states) => ({ state: { in: states.filter(isStoredState) } }),
    }),
    name: { kind: "text", rest: "name", description: "Case-insensitive substring", where: (name) => ({ name: icontains(name) }) },
    nameExact: { kind: "text", rest: "name_exact", description: "Exact, case-sensitive", where: (name) => ({ name }) },
    slug: { kind: "text", rest: "slug", description: "Exact", where: (slug) => ({ slug }) },
    description: { kind: "text", rest: "description", where: (text) => ({ description: icontains(text) }) },
    keyword: {
      kind: "text",
      rest: "keyword",
      description: "Substring of the name, the description or the customer's name or abbreviation",
      where: (text) => ({
        OR: [
          { name: icontains(text) },
          { description: icontains(text) },
          { customer: { name: icontains(text) } },
          { customer: { abbreviation: icontains(text) } },
        ],
      }),
    },
    query: {
      kind: "text",
      rest: "query",
      description: "The offering's uuid, or a substring of its name, slug or description",
      where: (text) => {
        const id = parseUuid(text.trim());
        const contains = icontains(text);
        return { OR: [...(id ? [{ id }] : []), { name: contains }, { slug: contains }, { description: contains }] };
      },
    },
    ...byTimestamps(),
    hasTermsOfService: {
      kind: "boolean",
      rest: "has_terms_of_service",
      where: (has) => (has ? { termsOfService: { some: {} } } : { termsOfService: { none: {} } }),
    },
    hasActiveTermsOfService: {
      kind: "boolean",
      rest: "has_active_terms_of_service",
      where: (has) => (has ? { termsOfService: { some: { isActive: true } } } : { termsOfService: { none: { isActive: true } } }),
    },
    userHasConsent: {
      kind: "boolean",
      rest: "user_has_consent",
      description: "Whether the viewer has an unrevoked consent to the offering's terms",
      where: (has) => async (ctx) => {
        const consent = { userId: ctx.requireViewer().id, revocationDate: null };
        return has ? { consents: { some: consent } } : { consents: { none: consent } };
      },
    },
    userHasOfferingUser: {
      kind: "boolean",
      rest: "user_has_offering_user",
      description: "Whether the viewer has an offering user in the offering",
      where: (has) => async (ctx) => {
        const mine = { userId: ctx.requireViewer().id };
        return has ? { offeringUsers: { some: mine } } : { offeringUsers: { none: mine } };
      },
    },
    canCreateOfferingUser: {
      kind: "boolean",
      rest: "can_create_offering_user",
      description: "plugin_options.service_provider_can_create_offering_user equals this",
      where: (value) => ({ pluginOptions: { path: ["service_provider_can_create_offering_user"], equals: value } }),
    },
    accessible: {
      kind: "boolean",
      rest: "accessible",
      description: "true: leaves out offerings restricted to roles (plugin_options.restricted_to_roles) the viewer holds none of",
      where: (only) => (only ? async (ctx) => ({ NOT: await restrictedFromViewer(ctx) }) : EVERYTHING),
    },
    allowedCustomerUuid: {
      kind: "uuids",
      rest: { allowed_customer_uuid: "uuid" },
      description: "Offerings these customers may order: every offering is shared, so all of them if the customer exists",
      where: (ids) => async (ctx) => ((await count(ctx.db, "customer", { id: { in: ids } })) ? EVERYTHING : NOTHING),
    },
    serviceManagerUuid: {
      kind: "uuids",
      rest: { service_manager_uuid: "uuid" },
      description: "Offerings on which these users hold a role",
      where: (ids) => async (ctx) => ({ id: { in: await grantedScopeIds(ctx, grantsInForce(ctx.now(), "OFFERING", { userIds: ids })) } }),
    },
    projectUuid: {
      kind: "uuids",
      rest: { project_uuid: "uuid" },
      description: "Offerings a project may order: every offering is shared, so all of them if the project exists",
      where: (ids) => async (ctx) => ((await count(ctx.db, "project", { id: { in: ids } })) ? EVERYTHING : NOTHING),
    },
    consumerCustomerUuid: {
      kind: "uuids",
      rest: { consumer_customer_uuid: "uuid" },
      description: "Offerings accepting access subnets that these customers consume (a resource not terminated)",
      where: (ids) => ({
        pluginOptions: { path: ["enable_resource_access_subnets"], equals: true },
        resources: { some: { ...LIVE_RESOURCE, project: { customerId: { in: ids } } } },
      }),
    },
    resourceCustomerUuid: {
      kind: "uuids",
      rest: { resource_customer_uuid: "uuid" },
      description: "Offerings with a resource not terminated in a project of these customers",
      where: (ids) => ({ resources: { some: { ...LIVE_RESOURCE, project: { customerId: { in: ids } } } } }),
    },
    resourceProjectUuid: {
      kind: "uuids",
      rest: { resource_project_uuid: "uuid" },
      description: "Offerings with a resource not terminated in these projects",
      where: (ids) => ({ resources: { some: { ...LIVE_RESOURCE, projectId: { in: ids } } } }),
    },
    shared: { kind: "boolean", rest: "shared", description: "Every offering here is shared", where: everyOfferingHas },
    billable: { kind: "boolean", rest: "billable", description: "Every offering here is billable", where: everyOfferingHas },
    accessibleViaCalls: { kind: "boolean", rest: "accessible_via_calls", description: "Calls are not modelled", where: noOfferingHas },
    openForProposals: { kind: "boolean", rest: "open_for_proposals", description: "Calls are not modelled", where: noOfferingHas },
    importable: {
      kind: "text",
      rest: "importable",
      description: "No offering type supports importing resources here: matches nothing",
      where: () => NOTHING,
    },
    attributes: {
      kind: "text",
      rest: "attributes",
      description: "A JSON object of attribute values; offerings here have no attributes, so only {} matches",
      where: attributesWhere,
    },
    tagsAnd: {
      kind: "text",
      rest: "tags_and",
      description: "Comma-separated tag uuids, all required; tags are not modelled",
      where: (text) => (commaList(text).length ? NOTHING : EVERYTHING),
    },
    tagNamesAnd: {
      kind: "text",
      rest: "tag_names_and",
      description: "Comma-separated tag names, all required; tags are not modelled",
      where: (text) => (commaList(text).length ? NOTHING : EVERYTHING),
    },
    tagName: { kind: "texts", rest: "tag_name", ...unmodelled("Tags", NOTHING) },
    tag: { kind: "uuids", rest: { tag: "uuids" }, ...unmodelled("Tags", NOTHING) },
    categoryUuid: { kind: "uuids", rest: { category_uuid: "uuid" }, ...unmodelled("Categories", NOTHING) },
    categoryGroupUuid: { kind: "uuids", rest: { category_group_uuid: "uuid" }, ...unmodelled("Category groups", NOTHING) },
    offeringGroupUuid: { kind: "uuids", rest: { offering_group_uuid: "uuid" }, ...unmodelled("Offering groups", NOTHING) },
    organizationGroupUuid: { kind: "uuids", rest: { organization_group_uuid: "uuid" }, ...unmodelled("Organisation groups", NOTHING) },
    parentUuid: { kind: "uuids", rest: { parent_uuid: "uuid" }, ...unmodelled("Parent offerings", NOTHING) },
    scopeUuid: { kind: "uuids", rest: { scope_uuid: "uuid" }, ...unmodelled("Service settings", NOTHING) },
  },
  orderings: {
    name: (direction) => ({ name: direction }),
    created: (direction) => ({ created: direction }),
    type: (direction) => ({ type: direction }),
    state: (direction) => ({ state: direction }),
    // No invoices here: every offering's cost is 0, so every offering ties.
    total_cost: () => ({}),
    total_cost_estimated: () => ({}),
    // Prisma cannot order by a count of distinct customers: the list service sorts by it (see offering-totals.ts).
    total_customers: () => ({}),
  },
  defaultOrder: ["name"],
  tiebreak: [{ id: "asc" }],
});
