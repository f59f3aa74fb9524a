import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestApp, type HttpResponse, type TestApp } from "./support/app.ts";

/**
 * One loop of each mode of Waldur's site agent (1.0.6rc17, client 8.1.2), replayed over HTTP with the methods,
 * paths, queries and bodies recorded in site-agent.md: the common prologue (identity, service, processor
 * registration), then order_process, membership_sync and report, first against an empty offering and then with
 * a pending Create order, an OK resource and reported usage. Assertions are the statuses and fields the agent
 * reads; the end state is checked after the loops.
 */

const HEX = /^[0-9a-f]{32}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T/;
const dashed = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
const fields = (names: string[]) => names.map((name) => `field=${name}`).join("&");

const MEMBERSHIP_RESOURCE_FIELDS = [
  "uuid", "backend_id", "name", "slug", "state", "project_uuid", "project_slug", "customer_slug", "restrict_member_access",
  "backend_metadata", "limits", "paused", "downscaled", "attributes", "offering_plugin_options", "offering_backend_id",
  "project_name", "project_description", "customer_uuid", "customer_name", "end_date", "end_date_updated_at", "project_end_date",
];
const REPORT_RESOURCE_FIELDS = [
  "uuid", "backend_id", "name", "slug", "state", "project_uuid", "project_slug", "customer_slug", "limits", "backend_metadata",
  "attributes", "offering_plugin_options", "offering_backend_id",
];
const OFFERING_USER_FIELDS = ["user_uuid", "username", "url", "state", "uuid", "user_username", "user_full_name", "user_first_name", "user_last_name", "user_email"];
const PROCESSORS = { order_process: "OfferingOrderProcessor", membership_sync: "OfferingMembershipProcessor", report: "OfferingReportProcessor" } as const;
type Mode = keyof typeof PROCESSORS;

function billingPeriod() {
  const now = new Date();
  const day = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}-01`;
  return { day, reportDate: `${day}T00:00:00+00:00` };
}

function expectList(response: HttpResponse, count: number) {
  expect(response.status, response.text).toBe(200);
  expect(Array.isArray(response.body), response.text).toBe(true);
  expect(response.body).toHaveLength(count);
  expect(response.headers.get("x-result-count")).toBe(String(count));
}

let t: TestApp;
let call: (method: string, path: string, body?: unknown) => Promise<HttpResponse>;
let offering: string;

beforeEach(async () => {
  t = await startTestApp();
  offering = t.world.offering.uuid;
  call = (method, path, body) => t.http(method, path, { token: t.world.tokens.providerOwner, body });
});
afterEach(async () => {
  await t.close();
});

/** The prologue every mode runs on every iteration; answers what the agent keeps (service provider, offering). */
async function prologue(mode: Mode) {
  const version = await call("GET", "/api/version/");
  expect(version.status).toBe(200);
  expect(version.body.version).toEqual(expect.any(String));

  const name = `agent-${offering}`;
  const identityBody = {
    offering,
    name,
    version: "1.0.6rc17",
    dependencies: [
      { package: "waldur-site-agent-slurm", version: "0.0.0" },
      { package: "waldur-api-client", version: "8.1.2" },
    ],
    config_file_path: "",
    config_file_content: "",
    last_restarted: new Date().toISOString(),
  };
  const found = await call("GET", `/api/marketplace-site-agent-identities/?name=${name}`);
  expect(found.status, found.text).toBe(200);
  const identity =
    found.body.length === 0
      ? await call("POST", "/api/marketplace-site-agent-identities/", identityBody)
      : await call("PUT", `/api/marketplace-site-agent-identities/${found.body[0].uuid}/`, identityBody);
  expect(identity.status, identity.text).toBe(found.body.length === 0 ? 201 : 200);
  expect(identity.body).toMatchObject({
    uuid: expect.stringMatching(HEX),
    url: expect.stringMatching(/^http:\/\/.+\/api\/marketplace-site-agent-identities\/[0-9a-f]{32}\/$/),
    offering,
    created_by: t.world.users.providerOwner.uuid,
    name,
    version: "1.0.6rc17",
    dependencies: identityBody.dependencies,
    created: expect.stringMatching(ISO),
    modified: expect.stringMatching(ISO),
    last_restarted: expect.stringMatching(ISO),
    services: expect.any(Array),
    compatibility: { status: "unknown", message: expect.any(String) },
  });

  const service = await call("POST", `/api/marketplace-site-agent-identities/${identity.body.uuid}/register_service/`, { name: mode, mode });
  expect([200, 201]).toContain(service.status);
  expect(service.body).toMatchObject({
    uuid: expect.stringMatching(HEX),
    url: expect.any(String),
    identity: identity.body.uuid,
    identity_name: name,
    name: mode,
    mode,
    state: "Active",
    statistics: {},
    processors: expect.any(Array),
    created: expect.stringMatching(ISO),
    modified: expect.stringMatching(ISO),
  });

  expect((await call("GET", "/api/users/me/")).body.username).toBe("providerOwner");
  const details = await call("GET", `/api/marketplace-provider-offerings/${offering}/?field=components&field=customer_uuid&field=partitions&field=plugin_options`);
  expect(details.status).toBe(200);
  expect(Object.keys(details.body).sort()).toEqual(["components", "customer_uuid", "partitions", "plugin_options"]);
  expect(details.body.components.map((c: { type: string }) => c.type)).toContain("cpu");
  expect(details.body.partitions).toEqual([]);
  expect(details.body.plugin_options.service_provider_can_create_offering_user).toBe(true);

  const providers = await call("GET", `/api/marketplace-service-providers/?customer_uuid=${details.body.customer_uuid}&field=uuid`);
  expect(providers.status).toBe(200);
  expect(providers.body).toEqual([{ uuid: t.world.serviceProvider.uuid }]);

  const processor = await call("POST", `/api/marketplace-site-agent-services/${service.body.uuid}/register_processor/`, {
    name: PROCESSORS[mode],
    backend_type: "waldur_site_agent_slurm.backend.SlurmBackend",
    backend_version: "0.0.0",
  });
  expect([200, 201]).toContain(processor.status);
  expect(processor.body).toMatchObject({
    uuid: expect.stringMatching(HEX),
    url: expect.any(String),
    service: service.body.uuid,
    service_name: mode,
    name: PROCESSORS[mode],
    backend_type: "waldur_site_agent_slurm.backend.SlurmBackend",
    backend_version: "0.0.0",
    created: expect.stringMatching(ISO),
    modified: expect.stringMatching(ISO),
  });
  return { identity: identity.body.uuid as string, serviceStatus: service.status, processorStatus: processor.status, serviceProvider: providers.body[0].uuid as string };
}

const pendingOrders = () => call("GET", `/api/marketplace-orders/?offering_uuid=${offering}&state=pending-provider&state=executing&page_size=100`);
const membershipResources = () =>
  call("GET", `/api/marketplace-provider-resources/?${fields(MEMBERSHIP_RESOURCE_FIELDS)}&offering_uuid=${offering}&state=OK&state=Erred&page_size=100`);
const reportResources = () =>
  call("GET", `/api/marketplace-provider-resources/?${fields(REPORT_RESOURCE_FIELDS)}&offering_uuid=${offering}&state=OK&state=Erred&page_size=100`);
const offeringUsers = () =>
  call("GET", `/api/marketplace-offering-users/?${fields(OFFERING_USER_FIELDS)}&is_restricted=false&offering_uuid=${offering}&page_size=100`);

async function accountsAreEmpty() {
  for (const action of ["list_project_service_accounts", "list_course_accounts"]) {
    expectList(await call("GET", `/api/marketplace-provider-offerings/${offering}/${action}/?page_size=100`), 0);
  }
}

async function membershipPrelude() {
  const settings = await call("GET", `/api/marketplace-provider-offerings/${offering}/?field=plugin_options`);
  expect(Object.keys(settings.body)).toEqual(["plugin_options"]);
  const config = await call("GET", `/api/marketplace-provider-offerings/${offering}/user-attribute-config/`);
  expect(config.status, config.text).toBe(200);
  expect(config.body).toMatchObject({ is_default: true, offering_uuid: offering, exposed_fields: ["username", "full_name", "email"], expose_email: true });
}

describe("the site agent's recorded loops", () => {
  it("run against an empty offering", async () => {
    for (const mode of ["order_process", "membership_sync", "report"] as const) {
      const first = await prologue(mode);
      expect([first.serviceStatus, first.processorStatus]).toEqual([201, 201]);
    }
    expectList(await pendingOrders(), 0);
    expectList(await membershipResources(), 0);
    await membershipPrelude();
    expectList(await offeringUsers(), 0);
    const components = await call("GET", `/api/marketplace-provider-offerings/${offering}/?field=components`);
    expect(components.body.components.find((c: { type: string }) => c.type === "cpu")).toMatchObject({ type: "cpu", name: "CPU", billing_type: "usage" });
    expectList(await reportResources(), 0);

    // The next iteration finds the identity, PUTs it and refreshes its registrations (200, not 201).
    const again = await prologue("order_process");
    expect([again.serviceStatus, again.processorStatus]).toEqual([200, 200]);
    const identities = await call("GET", `/api/marketplace-site-agent-identities/?name=agent-${offering}`);
    expectList(identities, 1);
    expect(identities.body[0].services.map((s: { name: string }) => s.name).sort()).toEqual(["membership_sync", "order_process", "report"]);
    expect(identities.body[0].services.flatMap((s: { processors: Array<{ name: string }> }) => s.processors.map((p) => p.name)).sort()).toEqual(
      Object.values(PROCESSORS).sort(),
    );
  });

  it("process a Create order, sync membership and report usage", async () => {
    const placed = await t.http("POST", "/api/marketplace-orders/", {
      token: t.world.tokens.projectAdmin,
      body: { offering: `${t.baseUrl}/api/marketplace-public-offerings/${offering}/`, project: `${t.baseUrl}/api/projects/${t.world.project.uuid}/`, attributes: { name: "hpc-res1" } },
    });
    expect(placed.status, placed.text).toBe(201);

    // ── order_process ──
    const { serviceProvider } = await prologue("order_process");
    const pending = await pendingOrders();
    expectList(pending, 1);
    const order: string = pending.body[0].uuid;
    const resource: string = pending.body[0].marketplace_resource_uuid;
    const approved = await call("POST", `/api/marketplace-orders/${order}/approve_by_provider/`, {});
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toEqual({ detail: expect.any(String) });
    expect((await call("GET", `/api/marketplace-orders/${order}/`)).body.state).toBe("executing");

    const creating = await call("GET", `/api/marketplace-provider-resources/${resource}/`);
    expect(creating.body).toMatchObject({ state: "Creating", customer_name: "Consumer Org", project_name: "Project", customer_slug: "consumer-org", project_slug: "project" });
    const team = await call("GET", `/api/marketplace-provider-resources/${resource}/team/`);
    expect(team.status, team.text).toBe(200);
    expect(team.body.map((m: { username: string; role: string }) => [m.username, m.role])).toEqual([
      ["projectAdmin", "PROJECT.ADMIN"],
      ["projectManager", "PROJECT.MANAGER"],
      ["projectMember", "PROJECT.MEMBER"],
    ]);
    for (const member of team.body) {
      expect(member).toMatchObject({ uuid: expect.stringMatching(HEX), url: expect.any(String), full_name: expect.any(String), expiration_time: null });
      expect(member).toHaveProperty("offering_user_username");
      expect(member).toHaveProperty("offering_user_state");
    }
    const keys = await call("GET", `/api/marketplace-service-providers/${serviceProvider}/keys/`);
    expect(keys.status, keys.text).toBe(200);
    expect(keys.body).toEqual([]);

    const backendId = await call("POST", `/api/marketplace-provider-resources/${resource}/set_backend_id/`, { backend_id: "hpc_res1" });
    expect(backendId.status, backendId.text).toBe(200);
    expect(backendId.body).toEqual({ status: "Resource backend_id has been changed." });
    const limits = await call("POST", `/api/marketplace-provider-resources/${resource}/set_limits/`, { limits: { cpu: 1000 } });
    expect(limits.status, limits.text).toBe(200);
    expect(limits.body).toEqual({ status: expect.any(String) });
    expect((await call("GET", `/api/marketplace-orders/${order}/?field=uuid&field=state`)).body).toEqual({ uuid: order, state: "executing" });
    const done = await t.http("POST", `/api/marketplace-orders/${dashed(order)}/set_state_done/`, { token: t.world.tokens.providerOwner });
    expect(done.status, done.text).toBe(200);
    expect((await call("GET", `/api/marketplace-provider-resources/${resource}/`)).body).toMatchObject({ state: "OK", backend_id: "hpc_res1", limits: { cpu: 1000 } });
    expect((await call("GET", `/api/marketplace-provider-resources/${resource}/team/`)).body).toHaveLength(3);
    await accountsAreEmpty();

    // ── membership_sync ──
    await prologue("membership_sync");
    const resources = await membershipResources();
    expectList(resources, 1);
    expect(Object.keys(resources.body[0]).sort()).toEqual([...MEMBERSHIP_RESOURCE_FIELDS].sort());
    expect(resources.body[0]).toMatchObject({
      uuid: resource, backend_id: "hpc_res1", name: "hpc-res1", slug: "hpc-res1", state: "OK", restrict_member_access: false,
      paused: false, downscaled: false, customer_name: "Consumer Org", offering_backend_id: "", end_date: null, project_end_date: null,
    });
    await membershipPrelude();
    const users = await offeringUsers();
    expectList(users, 3);
    expect(users.body.map((ou: { user_username: string }) => ou.user_username).sort()).toEqual(["projectAdmin", "projectManager", "projectMember"]);
    expect(users.body.every((ou: { state: string }) => ou.state === "Requested")).toBe(true);
    expect((await call("GET", `/api/marketplace-provider-resources/${resource}/team/`)).status).toBe(200);
    await accountsAreEmpty();
    const metadata = await call("POST", `/api/marketplace-provider-resources/${resource}/set_backend_metadata/`, { backend_metadata: { qos: "normal" } });
    expect(metadata.status, metadata.text).toBe(200);
    expect(metadata.body).toEqual({ status: expect.any(String) });
    expectList(await call("GET", `/api/component-user-usage-limits/?resource_uuid=${resource}&page_size=100`), 0);
    const synced = await call("POST", `/api/marketplace-provider-resources/${resource}/refresh_last_sync/`);
    expect(synced.status, synced.text).toBe(200);
    expect(synced.body, "Waldur answers refresh_last_sync with no body").toBeUndefined();

    // ── report ──
    await prologue("report");
    expectList(await reportResources(), 1);
    const brief = await call("GET", `/api/marketplace-provider-resources/${resource}/?field=uuid&field=name&field=backend_id`);
    expect(brief.body).toEqual({ uuid: resource, name: "hpc-res1", backend_id: "hpc_res1" });
    const { day, reportDate } = billingPeriod();
    const usagesQuery = `/api/marketplace-component-usages/?billing_period=${day}&field=uuid&field=type&field=usage&resource_uuid=${resource}&page_size=100`;
    expectList(await call("GET", usagesQuery), 0);
    expectList(await call("GET", `/api/marketplace-component-user-usages/?component_usage__billing_period=${day}&field=component_usage&resource_uuid=${resource}&page_size=100`), 0);
    const reported = await call("POST", "/api/marketplace-component-usages/set_usage/", { usages: [{ type: "cpu", amount: "6.40" }], resource, date: reportDate });
    expect(reported.status, reported.text).toBe(201);
    const usages = await call("GET", usagesQuery);
    expectList(usages, 1);
    expect(usages.body[0]).toMatchObject({ type: "cpu" });
    expect(Number(usages.body[0].usage)).toBeCloseTo(6.4);

    // What the loops left behind, as another client sees it.
    const final = await t.http("GET", `/api/marketplace-provider-resources/${resource}/`, { token: t.world.tokens.staff });
    expect(final.body).toMatchObject({ state: "OK", backend_id: "hpc_res1", backend_metadata: { qos: "normal" }, current_usages: { cpu: 6.4 } });
    expect(Date.parse(final.body.last_sync)).toBeGreaterThan(Date.parse(final.body.created));
    expect((await t.http("GET", `/api/marketplace-orders/${order}/`, { token: t.world.tokens.staff })).body.state).toBe("done");
    const graph = await t.gql<any>(`{ offering(uuid: "${offering}") { agentIdentities { name version services { name state processors { name } } } } }`, {}, t.world.tokens.providerManager);
    expect(graph.errors).toBeUndefined();
    expect(graph.data!.offering.agentIdentities).toEqual([
      expect.objectContaining({ name: `agent-${offering}`, version: "1.0.6rc17", services: expect.arrayContaining([expect.objectContaining({ name: "report", state: "ACTIVE" })]) }),
    ]);
  });
});
