import { byAllocation } from "../directory/allocation-filters.ts";
import { byOffering } from "../directory/offering-filters.ts";
import type { OrderState, Prisma } from "../generated/prisma/client.ts";
import { choiceFilter, defineContract, postgresNulls, universalFlag, valuesByLabel } from "../collections/contract.ts";
import { invalid } from "../platform/errors.ts";
import { comparableWithJson, holdsLoneSurrogates } from "../platform/json-depth.ts";
import { icontains } from "../platform/reads/text-match.ts";
import { byTimestamps } from "../collections/timestamp-filters.ts";
import { ORDER_STATE_LABELS } from "./order-states.ts";
import {
  componentCount,
  type LookupEnv,
  metadataHasKey,
  metadataIContains,
  NOTHING,
  onlyBillingType,
  pluginOptionsHasKey,
  searchQuery,
  serviceManagerOf,
  visibleToUsername,
} from "./lookups.ts";
import { RESOURCE_STATE_LABELS } from "./states.ts";

/** Orders that keep a resource in Creating from the provider's sight (Waldur's visible_to_providers). */
const NOT_YET_FOR_PROVIDERS: OrderState[] = ["PENDING_CONSUMER", "PENDING_PROJECT", "PENDING_START_DATE"];

/** Every offering here is shared (none is private to a project) and billable (Waldur's defaults). */
const everyOffering = universalFlag(NOTHING);

/** Waldur's resource_attributes: a JSON object; each key must equal its value, or be one of a list of values. */
function attributesWhere(text: string): Prisma.ResourceWhereInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid({ resourceAttributes: ["Filter attribute is not valid json."] });
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalid({ resourceAttributes: ["Filter attribute should be an dict."] });
  }
  if (holdsLoneSurrogates(parsed)) throw invalid({ resourceAttributes: ["Filter attribute is not valid json."] });
  return {
    AND: Object.entries(parsed).map(([key, value]): Prisma.ResourceWhereInput =>
      Array.isArray(value)
        ? { OR: value.map((one: Prisma.InputJsonValue) => ({ attributes: { path: [key], equals: one } })) }
        : { attributes: { path: [key], equals: value as Prisma.InputJsonValue } },
    ),
  };
}

export const RESOURCE_CONTRACT = defineContract<Prisma.ResourceWhereInput, Prisma.ResourceOrderByWithRelationInput, LookupEnv>()({
  filters: {
    ...byOffering((offering) => ({ offering }), NOTHING),
    ...byAllocation(NOTHING, { customer: { url: "customer" } }),
    state: choiceFilter({
      rest: "state",
      labels: valuesByLabel(RESOURCE_STATE_LABELS),
      enumName: "ResourceState",
      description: "Any of these states",
      where: (states) => ({ state: { in: states } }),
    }),
    orderState: choiceFilter({
      rest: "order_state",
      labels: valuesByLabel(ORDER_STATE_LABELS),
      enumName: "OrderState",
      description: "Has an order in any of these states",
      where: (states) => ({ orders: { some: { state: { in: states } } } }),
    }),
    offeringType: { kind: "text", rest: "offering_type", where: (type) => ({ offering: { type } }) },
    offeringBillable: { kind: "boolean", rest: "offering_billable", where: everyOffering },
    offeringShared: { kind: "boolean", rest: "offering_shared", where: everyOffering },
    planUuid: { kind: "uuids", rest: { plan_uuid: "uuid" }, where: (ids) => ({ planId: { in: ids } }) },
    projectName: { kind: "text", rest: "project_name", description: "Exact", where: (name) => ({ project: { name } }) },
    serviceManagerUuid: {
      kind: "uuids",
      rest: { service_manager_uuid: "uuid" },
      description: "Resources of the offerings this user holds a role on",
      where: serviceManagerOf,
    },
    scope: {
      kind: "uuids",
      rest: { scope: { url: "providerResource" } },
      description: "The backend object behind the resource (another resource)",
      where: (ids) => ({ scopeId: { in: ids } }),
    },
    name: { kind: "text", rest: "name", description: "Case-insensitive substring", where: (name) => ({ name: icontains(name) }) },
    nameExact: { kind: "text", rest: "name_exact", where: (name) => ({ name }) },
    slug: { kind: "text", rest: "slug", where: (slug) => ({ slug }) },
    backendId: { kind: "text", rest: "backend_id", where: (backendId) => ({ backendId }) },
    query: { kind: "text", rest: "query", description: "A resource uuid, or text in name, slug, backend id and addresses", where: searchQuery },
    runtimeState: {
      kind: "text",
      rest: "runtime_state",
      description: "backend_metadata.runtime_state, exact",
      where: (state) => (comparableWithJson(state) ? { backendMetadata: { path: ["runtime_state"], equals: state } } : NOTHING),
    },
    flavorName: { kind: "text", rest: "flavor_name", where: (text) => metadataIContains("flavor_name", text) },
    imageName: { kind: "text", rest: "image_name", where: (text) => metadataIContains("image_name", text) },
    isAttached: { kind: "boolean", rest: "is_attached", where: (attached) => metadataHasKey("instance_name", attached) },
    resourceAttributes: { kind: "text", rest: "resource_attributes", description: "A JSON object", where: attributesWhere },
    lexisLinksSupported: {
      kind: "boolean",
      rest: "lexis_links_supported",
      where: (supported) => pluginOptionsHasKey("heappe_url", supported),
    },
    restrictMemberAccess: { kind: "boolean", rest: "restrict_member_access", where: (restrictMemberAccess) => ({ restrictMemberAccess }) },
    paused: { kind: "boolean", rest: "paused", where: (paused) => ({ paused }) },
    downscaled: { kind: "boolean", rest: "downscaled", where: (downscaled) => ({ downscaled }) },
    hasTerminateDate: {
      kind: "boolean",
      rest: "has_terminate_date",
      where: (has) => ({ endDate: has ? { not: null } : null }),
    },
    usageBased: {
      kind: "boolean",
      rest: "usage_based",
      where: (based) => ({ offering: { components: based ? { some: { billingType: "USAGE" } } : { none: { billingType: "USAGE" } } } }),
    },
    limitBased: {
      kind: "boolean",
      rest: "limit_based",
      where: (based) => ({ offering: { components: based ? { some: { billingType: "LIMIT" } } : { none: { billingType: "LIMIT" } } } }),
    },
    onlyUsageBased: { kind: "boolean", rest: "only_usage_based", where: (only) => onlyBillingType("USAGE", only) },
    onlyLimitBased: { kind: "boolean", rest: "only_limit_based", where: (only) => onlyBillingType("LIMIT", only) },
    componentCount: { kind: "number", rest: "component_count", where: (count) => componentCount(count) },
    limitComponentCount: { kind: "number", rest: "limit_component_count", where: (count) => componentCount(count, "LIMIT") },
    visibleToUsername: { kind: "text", rest: "visible_to_username", where: (username) => (username ? visibleToUsername(username) : {}) },
    visibleToProviders: {
      kind: "boolean",
      rest: "visible_to_providers",
      description: "Leaves out resources still Creating behind an order the provider is not asked about yet",
      where: (visible) => (visible ? { NOT: { state: "CREATING", orders: { some: { state: { in: NOT_YET_FOR_PROVIDERS } } } } } : {}),
    },
    ...byTimestamps(),
  },
  orderings: {
    backend_id: (direction) => ({ backendId: direction }),
    created: (direction) => ({ created: direction }),
    customer_name: (direction) => ({ project: { customer: { name: direction } } }),
    end_date: (direction) => ({ endDate: postgresNulls(direction) }),
    name: (direction) => ({ name: direction }),
    offering_name: (direction) => ({ offering: { name: direction } }),
    // Without a plan the name is null and sorts as PostgreSQL (and Django) put nulls.
    plan_name: (direction) => ({ plan: { name: direction } }),
    project_name: (direction) => ({ project: { name: direction } }),
    state: (direction) => ({ state: direction }),
  },
  defaultOrder: ["-created"],
  tiebreak: [{ id: "asc" }],
});
