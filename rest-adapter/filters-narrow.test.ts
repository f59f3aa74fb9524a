import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpResponse, startTestApp, type TestApp } from "../test/support/app.ts";
import { buildSplitData, CUTOFF, type SplitData } from "../test/support/split-data.ts";
import { uuidListPath, uuidsOf } from "../test/support/list-uuids.ts";
import { restParameters } from "./collection-query.ts";
import type { RouteSpec } from "./route.ts";
import { REST_API } from "../src/modules.ts";

/**
 * Every REST filter of every served list narrows it: for each parameter its contract reads, a value that, on data
 * built to be split by it, lists fewer items than the unfiltered list, all of them among its items. A parameter
 * without a case here fails, so a filter added to a contract needs a case that shows it narrowing. A parameter that
 * cannot narrow on any data here (its concept has no rows to leave out) is marked `inert` with the reason, and the case
 * shows the list unchanged.
 */

type Value = string | ((d: SplitData) => string);
interface Case {
  value: Value;
  /** By design it matches nothing on any data here (an unmodelled concept, or the `false` of a universal flag). */
  empties?: true;
  /** It reads the viewer's roles: listed as a user who holds some, not as staff. */
  asViewer?: true;
  /** It cannot narrow on any data here (why): the list stays the same. */
  inert?: string;
}
/** Keeps some items and leaves out others. */
const splits = (value: Value): Case => ({ value });
const splitsAsViewer = (value: Value): Case => ({ value, asViewer: true });
const empties = (value: Value): Case => ({ value, empties: true });
const inert = (value: Value, reason: string): Case => ({ value, inert: reason });

/** A well-formed uuid of nothing: the value of filters on concepts that are not modelled. */
const NO_SUCH_UUID = "0123456789ab4def8123456789abcdef";
const unstored = empties("x");
const unmodelled = empties(NO_SUCH_UUID);
const cutoff = splits(CUTOFF);

/** The rows most cases split on (see split-data.ts). */
type Row = (d: SplitData) => { uuid: string };
const storage: Row = (d) => d.storage;
const secondProvider: Row = (d) => d.secondProvider;
const vintageLab: Row = (d) => d.vintageLab;
const vintageProject: Row = (d) => d.vintageProject;
const worldProject: Row = (d) => d.world.project;
const alice: Row = (d) => d.alice;
const projectMember: Row = (d) => d.world.users.projectMember;
const offeringManager: Row = (d) => d.world.users.offeringManager;
const bucket: Row = (d) => d.resources.bucket;
const vintageRun: Row = (d) => d.resources.vintageRun;

const uuidOf = (pick: Row) => splits((d) => pick(d).uuid);
const urlOf = (collection: string) => (pick: Row) => splits((d) => d.url(collection, pick(d)));
const customerUrl = urlOf("customers");
const userUrl = urlOf("users");
const offeringUrl = urlOf("marketplace-provider-offerings");
const resourceUrl = urlOf("marketplace-provider-resources");

const OFFERINGS: Record<string, Case> = {
  customer: customerUrl(secondProvider), customer_uuid: uuidOf(secondProvider), uuid_list: uuidOf((d) => d.hpc),
  type: splits("Marketplace.Basic"), state: splits("Draft"), name: splits("storage"), name_exact: splits("Object Storage"),
  slug: splits((d) => d.storage.slug), description: splits("durable"), keyword: splits("second"), query: splits("vintage"),
  created: cutoff, created_before: cutoff, modified: cutoff, modified_before: cutoff,
  has_terms_of_service: splits("true"), has_active_terms_of_service: splits("true"), user_has_consent: splits("true"),
  user_has_offering_user: splits("true"), can_create_offering_user: splits("true"), accessible: splits("true"),
  // Every offering is shared, so every customer may order all of them: only a customer that does not exist narrows.
  allowed_customer_uuid: empties(NO_SUCH_UUID),
  service_manager_uuid: uuidOf(offeringManager),
  // Every offering is shared, so every project may order all of them: only a project that does not exist narrows.
  project_uuid: empties(NO_SUCH_UUID),
  consumer_customer_uuid: uuidOf((d) => d.world.consumer), resource_customer_uuid: uuidOf((d) => d.world.consumer),
  resource_project_uuid: uuidOf(worldProject),
  shared: empties("false"), billable: empties("false"), accessible_via_calls: empties("true"), open_for_proposals: empties("true"),
  importable: empties("true"), attributes: empties('{"size": 1}'), tags_and: unmodelled, tag_names_and: empties("gpu"), tag_name: empties("gpu"),
  tag: unmodelled, category_uuid: unmodelled, category_group_uuid: unmodelled, offering_group_uuid: unmodelled,
  organization_group_uuid: unmodelled, parent_uuid: unmodelled, scope_uuid: unmodelled,
};

const KEYS: Record<string, Case> = {
  user_uuid: uuidOf(projectMember), name: splits("lap"), name_exact: splits("laptop"),
  fingerprint_md5: splits((d) => d.laptopKey.fingerprintMd5), fingerprint_sha256: splits((d) => d.laptopKey.fingerprintSha256),
  fingerprint_sha512: splits((d) => d.laptopKey.fingerprintSha512), is_shared: empties("true"),
  created: cutoff, created_before: cutoff, modified: cutoff, modified_before: cutoff,
};

const MAINTENANCE: Record<string, Case> = {
  state: splits("Scheduled"), maintenance_type: splits("3"), service_provider_uuid: uuidOf((d) => d.serviceProvider2),
  scheduled_start_after: splits("2029-01-01T00:00:00Z"), scheduled_start_before: splits("2025-01-01T00:00:00Z"),
  scheduled_end_after: splits("2029-01-01T00:00:00Z"), scheduled_end_before: splits("2025-01-01T00:00:00Z"), timing_bucket: splits("late_start"),
};

const USAGE_REPORTS: Record<string, Case> = {
  resource_uuid: uuidOf(vintageRun), resource: resourceUrl(vintageRun), offering_uuid: uuidOf((d) => d.archived),
  project_uuid: uuidOf(vintageProject), customer_uuid: uuidOf(vintageLab), type: splits("ram"),
  billing_period_year: splits("2023"), billing_period_month: splits("2"), date_after: splits("2024-02-01"), date_before: splits("2024-01-31"),
};

/** REST path → parameter → a value that splits the data built for it. */
const CASES: Record<string, Record<string, Case>> = {
  "/api/users/": {
    username: splits("split.alice"), username_list: splits("split.alice,split.bob"), email: splits("ALICE@split.example"),
    full_name: splits("alice arch"), query: splits("archer"), user_keyword: splits("archer"),
    is_active: splits("false"), is_staff: splits("true"), is_support: splits("true"),
    date_joined: cutoff, modified: cutoff, agreement_date: empties(CUTOFF),
    // Every user's registration method is "default".
    registration_method: empties("saml"),
    civil_number: unstored, description: unstored, job_title: unstored, native_name: unstored, organization: unstored, phone_number: unstored,
    customer_uuid: uuidOf(vintageLab), project_uuid: uuidOf(worldProject),
    organization_roles: splits("CUSTOMER.OWNER"), project_roles: splits("PROJECT.ADMIN"),
  },
  "/api/customers/": {
    name: splits("vintage"), name_exact: splits("Vintage Lab"), abbreviation: splits("sec"), slug: splits((d) => d.secondProvider.slug),
    query: splits("vintage"), native_name: unstored, contact_details: unstored, agreement_number: unstored, registration_code: unstored,
    backend_id: unstored, organization_group_name: unstored, organization_group_uuid: unmodelled,
    archived: empties("true"), is_call_managing_organization: empties("true"),
    is_service_provider: splits("true"), service_provider_uuid: uuidOf((d) => d.serviceProvider2), has_resources: splits("true"),
    // Accounting starts when a customer is created: no customer's is still ahead.
    accounting_is_running: empties("false"),
    user_uuid: uuidOf(projectMember),
    owned_by_current_user: splitsAsViewer("true"), current_user_has_role: splitsAsViewer("CUSTOMER.OWNER"),
    current_user_has_project_create_permission: splitsAsViewer("true"),
  },
  "/api/projects/": {
    customer: customerUrl(vintageLab), customer_uuid: uuidOf(vintageLab), name: splits("vintage"), name_exact: splits("Vintage project"),
    slug: splits((d) => d.vintageProject.slug), description: splits("climate"), customer_name: splits("vintage"),
    customer_abbreviation: splits("VL"), customer_native_name: unstored, backend_id: unstored,
    created: cutoff, created_before: cutoff, modified: cutoff, modified_before: cutoff, query: splits("vintage"),
    can_manage: splitsAsViewer("true"), can_admin: splitsAsViewer("true"), current_user_has_role: splitsAsViewer("PROJECT.ADMIN"),
    user_uuid: uuidOf(projectMember), user_uuid_with_active_role: uuidOf(projectMember),
    conceal_finished_projects: splits("true"), accounting_is_running: empties("false"),
    include_terminated: inert("false", "projects are never soft-deleted here, so the list is the same either way (as the contract says)"),
    is_removed: empties("true"), has_affiliation: empties("true"), affiliation_name: unstored, affiliation_uuid: unmodelled,
    science_domain_uuid: unmodelled, science_sub_domain_uuid: unmodelled,
  },
  "/api/marketplace-service-providers/": {
    customer_uuid: uuidOf(secondProvider), customer: customerUrl(secondProvider), customer_keyword: splits("second"),
  },
  "/api/marketplace-provider-offerings/": OFFERINGS,
  "/api/marketplace-provider-offerings/:uuid/list_project_service_accounts/": OFFERINGS,
  "/api/marketplace-provider-offerings/:uuid/list_course_accounts/": OFFERINGS,
  "/api/events/": {
    event_type: splits("role_granted"), feature: splits("permissions"), scope: urlOf("projects")(worldProject),
    created_from: splits(String(Date.parse(CUTOFF) / 1000)), created_to: splits(String(Date.parse(CUTOFF) / 1000)), message: splits("granted"),
    user_uuid: uuidOf(alice), related_user_uuid: uuidOf(alice), customer_uuid: uuidOf((d) => d.world.consumer),
    project_uuid: uuidOf(worldProject), auth_method: splits("token"), pat_uuid: splits("pat-1"),
  },
  "/api/marketplace-offering-users/": {
    state: splits("OK"), provider_uuid: uuidOf(secondProvider), offering_uuid: uuidOf(storage), offering: offeringUrl(storage),
    user_uuid: uuidOf(alice), username: splits("alice01"), user_username: splits("SPLIT.ALICE"),
    created: cutoff, created_after: cutoff, created_before: cutoff, modified: cutoff, modified_after: cutoff, modified_before: cutoff,
    is_restricted: splits("true"), runtime_state: splits("Pending account linking"), offering_slug: splits((d) => d.storage.slug),
    parent_offering_uuid: unmodelled, has_consent: splits("true"),
    // No offering requires profile attributes: every profile is complete.
    has_complete_profile: empties("false"),
    offering_has_active_tos: splits("true"), query: splits("alice"), stuck: splits("true"),
    consented_to_active_terms: splits("true"),
  },
  "/api/marketplace-offering-terms-of-service/": {
    offering_uuid: uuidOf(storage), offering: offeringUrl(storage),
    is_active: splits("true"), version: splits("2.0"), requires_reconsent: splits("true"),
  },
  "/api/marketplace-user-offering-consents/": {
    user_uuid: uuidOf(alice), user: userUrl(alice), offering_uuid: uuidOf(storage), offering: offeringUrl(storage),
    version: splits("2.0"), has_consent: splits("true"), requires_reconsent: splits("true"),
  },
  "/api/marketplace-orders/": {
    state: splits("done"), type: splits("Terminate"), offering_uuid: uuidOf(storage), offering: offeringUrl(storage),
    offering_slug: splits((d) => d.storage.slug), offering_type: splits("Marketplace.Basic"), parent_offering_uuid: unmodelled,
    category_uuid: unmodelled, provider_uuid: uuidOf(secondProvider), customer_uuid: uuidOf(vintageLab), project_uuid: uuidOf(vintageProject),
    service_manager_uuid: uuidOf(offeringManager), resource_uuid: uuidOf(bucket), resource: resourceUrl(bucket),
    resource_name: splits("beta"), query: splits("beta"), slug: unstored,
    created: cutoff, created_before: cutoff, modified: cutoff, modified_before: cutoff,
    can_approve_as_consumer: splits("true"), can_approve_as_provider: splits("true"), was_auto_approved: empties("true"),
  },
  "/api/marketplace-provider-resources/": {
    state: splits("Terminated"), order_state: splits("pending-provider"), offering_uuid: uuidOf(storage), offering: offeringUrl(storage),
    offering_slug: splits((d) => d.storage.slug), offering_type: splits("Marketplace.Basic"),
    offering_billable: empties("false"), offering_shared: empties("false"), parent_offering_uuid: unmodelled, category_uuid: unmodelled,
    plan_uuid: uuidOf((d) => d.plan), project_uuid: uuidOf(vintageProject), project_name: splits("Vintage project"),
    customer_uuid: uuidOf(vintageLab), customer: customerUrl(vintageLab), provider_uuid: uuidOf(secondProvider),
    service_manager_uuid: uuidOf(offeringManager), scope: resourceUrl((d) => d.resources.compute),
    name: splits("beta"), name_exact: splits("beta-storage"), slug: splits((d) => d.resources.bucket.slug), backend_id: splits("b-alpha"),
    query: splits("beta"), runtime_state: splits("ACTIVE"), flavor_name: splits("large"), image_name: splits("ubuntu"), is_attached: splits("true"),
    resource_attributes: splits('{"partition": "gpu"}'), lexis_links_supported: splits("true"), restrict_member_access: splits("true"),
    paused: splits("true"), downscaled: splits("true"), has_terminate_date: splits("true"), usage_based: splits("true"), limit_based: splits("true"),
    only_usage_based: splits("true"), only_limit_based: splits("true"), component_count: splits("2"), limit_component_count: splits("1"),
    visible_to_username: splits("projectMember"), visible_to_providers: splits("true"),
    created: cutoff, created_before: cutoff, modified: cutoff, modified_before: cutoff,
  },
  "/api/marketplace-component-usages/": { ...USAGE_REPORTS, billing_period: splits("2024-02-01"), missing_usage_policy: splits("reuse") },
  "/api/marketplace-component-user-usages/": { ...USAGE_REPORTS, component_usage__billing_period: splits("2024-02-01"), username: splits("alice") },
  "/api/component-user-usage-limits/": {
    resource_uuid: uuidOf(bucket), resource: resourceUrl(bucket), offering_uuid: uuidOf(storage), component_uuid: uuidOf((d) => d.components.ram),
    component_type: splits("ram"), user_uuid: uuidOf(projectMember), user: userUrl(projectMember), username: splits("projectMember"),
  },
  "/api/keys/": KEYS,
  "/api/marketplace-service-providers/:uuid/keys/": KEYS,
  "/api/maintenance-announcements/": MAINTENANCE,
  "/api/public-maintenance-announcements/": MAINTENANCE,
  "/api/maintenance-announcement-offerings/": { maintenance_uuid: uuidOf((d) => d.scheduledMaintenance), offering_uuid: uuidOf((d) => d.hpc) },
  "/api/admin-announcements/": { description: splits("outage"), is_active: splits("true"), type: splits("warning") },
  "/api/marketplace-site-agent-identities/": {
    name: splits("storage-agent"), offering_uuid: uuidOf(storage), version: splits("0.6.0"), last_restarted: cutoff, orphaned: splits("true"),
  },
  "/api/event-subscriptions/": { user_uuid: uuidOf((d) => d.alice), user_username: splits("split.alice") },
  "/api/event-subscription-queues/": {
    event_subscription_uuid: uuidOf((d) => d.aliceOrders), offering_uuid: uuidOf(storage), object_type: splits("order"),
  },
};

/** Lists under one object: which object the path names. */
const PARENTS: Record<string, (d: SplitData) => string> = {
  // The second provider's Object Storage is the allocation in the world's project (the world's own awaits its consumer).
  "/api/marketplace-service-providers/:uuid/keys/": (d) => d.serviceProvider2.uuid,
};

/**
 * Offering actions whose filters, as in Waldur, pick the offering the path names (their own list is always empty):
 * a filter that leaves the offering out of the offering list makes the action answer 404.
 */
const FILTERING_THE_OFFERING = new Set([
  "/api/marketplace-provider-offerings/:uuid/list_project_service_accounts/",
  "/api/marketplace-provider-offerings/:uuid/list_course_accounts/",
]);
const OFFERING_LIST = "/api/marketplace-provider-offerings/";

let t: TestApp;
let d: SplitData;
beforeAll(async () => {
  t = await startTestApp();
  d = await buildSplitData(t);
});
afterAll(() => t.close());

const tokenFor = (one: Case) => (one.asViewer ? d.viewer.token : d.world.tokens.staff);

/** A request's filter: a case's one parameter, or none for the unfiltered list. */
type Filter = Record<string, string>;
const NO_FILTER: Filter = {};
const filterOf = (parameter: string, one: Case): Filter => ({ [parameter]: typeof one.value === "function" ? one.value(d) : one.value });

/** The data never changes, so each request is made once (the unfiltered lists serve every case of their path). */
const responses = new Map<string, Promise<HttpResponse<Array<{ uuid: string }>>>>();
function get(path: string, filter: Filter, token: string) {
  const url = uuidListPath(path, filter);
  let response = responses.get(`${token} ${url}`);
  if (!response) responses.set(`${token} ${url}`, (response = t.http("GET", url, { token })));
  return response;
}

/** The uuids a list holds (all of them: one page of at most 300). */
const uuids = async (path: string, filter: Filter, token: string) => uuidsOf(await get(path, filter, token), `${path} ${JSON.stringify(filter)}`);

const concrete = (path: string) => path.replace(":uuid", PARENTS[path]?.(d) ?? ":uuid");

/** The filtered list is a strict subset of the unfiltered one: empty when the filter matches nothing by design, else not. */
async function expectNarrowed(path: string, parameter: string, one: Case) {
  const all = await uuids(path, NO_FILTER, tokenFor(one));
  const kept = await uuids(path, filterOf(parameter, one), tokenFor(one));
  expect(kept.length, `${parameter} left all ${all.length} items`).toBeLessThan(all.length);
  expect(all).toEqual(expect.arrayContaining(kept));
  if (one.empties) expect(kept).toEqual([]);
  else expect(kept.length, `${parameter} left nothing`).toBeGreaterThan(0);
  return { all, kept };
}

/** An inert filter reads its value (a bad one is a 400) but lists the same items. */
async function expectUnchanged(path: string, parameter: string, one: Case) {
  const all = await uuids(path, NO_FILTER, tokenFor(one));
  expect(await uuids(path, filterOf(parameter, one), tokenFor(one))).toEqual(all);
  expect(all.length).toBeGreaterThan(0);
}

/** The action answers for an offering the filter leaves out without it, and 404 with it; for one it keeps, 200. */
async function expectOfferingNarrowed(path: string, parameter: string, one: Case) {
  const { all, kept } = await expectNarrowed(OFFERING_LIST, parameter, one);
  const action = (offering: string, filter: Filter) => get(path.replace(":uuid", offering), filter, tokenFor(one));
  const [leftOut] = all.filter((uuid) => !kept.includes(uuid));
  expect((await action(leftOut, NO_FILTER)).status).toBe(200);
  expect((await action(leftOut, filterOf(parameter, one))).status, `${parameter} kept the offering`).toBe(404);
  if (kept.length) expect((await action(kept[0], filterOf(parameter, one))).status).toBe(200);
}

const LISTS = REST_API.routes.filter((route): route is RouteSpec & Required<Pick<RouteSpec, "contract">> =>
  Boolean(route.kind === "list" && route.method === "GET" && route.contract),
);

describe("every REST filter narrows its list", () => {
  it("the table names only served lists", () => {
    expect(Object.keys(CASES).filter((path) => !LISTS.some((route) => route.path === path))).toEqual([]);
  });

  for (const route of LISTS) {
    describe(route.path, () => {
      const cases = CASES[route.path] ?? {};
      const parameters = restParameters(route.contract).map((parameter) => parameter.name);

      it("has a case for no parameter its contract does not read", () => {
        expect(Object.keys(cases).filter((name) => !parameters.includes(name))).toEqual([]);
      });

      for (const parameter of parameters) {
        const one = cases[parameter];
        if (!one) {
          it(parameter, () => expect.fail(`no case shows ?${parameter}= narrowing ${route.path}: add one to CASES`));
          continue;
        }
        const check = () =>
          FILTERING_THE_OFFERING.has(route.path)
            ? expectOfferingNarrowed(route.path, parameter, one)
            : expectNarrowed(concrete(route.path), parameter, one);
        if (one.inert) it(`${parameter} (cannot narrow: ${one.inert})`, () => expectUnchanged(concrete(route.path), parameter, one));
        else it(parameter, check);
      }
    });
  }
});
