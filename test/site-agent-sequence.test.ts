import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestApp, type HttpResponse, type TestApp } from "./support/app.ts";

/**
 * The site agent's call sequence (waldur-api.md §13, site-agent.md) replayed over real HTTP, with the methods,
 * paths, query strings and bodies the agent sends: order_process (list pending orders → approve_by_provider →
 * set_state_done), membership_sync (offering users → begin_creating → PATCH username) and report (set_usage →
 * set_user_usages). Only the consumer's order is placed by another client.
 */

const HEX = /^[0-9a-f]{32}$/;
const dashed = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
const OFFERING_USER_FIELDS = ["user_uuid", "username", "url", "state", "uuid", "user_username", "user_full_name", "user_first_name", "user_last_name", "user_email"];
const fields = (names: string[]) => names.map((name) => `field=${name}`).join("&");

/** The billing period the agent reports for: the first of the current month, as a date and as its report datetime. */
function currentPeriod() {
  const now = new Date();
  const day = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}-01`;
  return { day, reportDate: `${day}T00:00:00+00:00` };
}

function expectList(response: HttpResponse, count: number) {
  expect(response.status, response.text).toBe(200);
  expect(Array.isArray(response.body)).toBe(true);
  expect(response.body).toHaveLength(count);
  expect(response.headers.get("x-result-count")).toBe(String(count));
}

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

describe.each(["providerOwner", "offeringManager"] as const)("site agent call sequence as %s", (agentPersona) => {
  it("processes the order, provisions the offering users and reports usage", async () => {
    const agent = t.world.tokens[agentPersona];
    const offering = t.world.offering.uuid;
    const call = (method: string, path: string, body?: unknown) => t.http(method, path, { token: agent, body });

    // Consumer side: a project admin orders an allocation; the provider still has to approve it.
    const placed = await t.http("POST", "/api/marketplace-orders/", {
      token: t.world.tokens.projectAdmin,
      body: {
        offering: `${t.baseUrl}/api/marketplace-public-offerings/${offering}/`,
        project: `${t.baseUrl}/api/projects/${t.world.project.uuid}/`,
        attributes: { name: "hpc-alloc" },
      },
    });
    expect(placed.status, placed.text).toBe(201);
    expect(placed.body).toMatchObject({ type: "Create", state: "pending-provider", offering_uuid: offering });

    // ── order_process ──
    const pendingQuery = `/api/marketplace-orders/?offering_uuid=${offering}&state=pending-provider&state=executing&page_size=100`;
    const pending = await call("GET", pendingQuery);
    expectList(pending, 1);
    const [order] = pending.body;
    expect(order).toMatchObject({ uuid: placed.body.uuid, state: "pending-provider", type: "Create", offering_uuid: offering });
    expect(order.uuid).toMatch(HEX);
    expect(order.marketplace_resource_uuid).toMatch(HEX);
    const resource: string = order.marketplace_resource_uuid;

    const approved = await call("POST", `/api/marketplace-orders/${order.uuid}/approve_by_provider/`, {});
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toEqual({ detail: expect.any(String) });

    const executing = await call("GET", `/api/marketplace-orders/${order.uuid}/`);
    expect(executing.status).toBe(200);
    expect(executing.body).toMatchObject({ uuid: order.uuid, state: "executing", marketplace_resource_uuid: resource });

    const creating = await call("GET", `/api/marketplace-provider-resources/${resource}/`);
    expect(creating.status, creating.text).toBe(200);
    expect(creating.body).toMatchObject({ uuid: resource, state: "Creating", name: "hpc-alloc", customer_name: "Consumer Org", project_name: "Project" });

    const stillPending = await call("GET", pendingQuery);
    expectList(stillPending, 1);
    expect(stillPending.body[0].state).toBe("executing");

    const checked = await call("GET", `/api/marketplace-orders/${order.uuid}/?field=uuid&field=state`);
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ uuid: order.uuid, state: "executing" });

    // The agent passes order.uuid (dashed) here, and sends no body.
    const done = await t.http("POST", `/api/marketplace-orders/${dashed(order.uuid)}/set_state_done/`, { token: agent });
    expect(done.status, done.text).toBe(200);

    const ok = await call("GET", `/api/marketplace-provider-resources/${resource}/`);
    expect(ok.body).toMatchObject({ uuid: resource, state: "OK" });
    expectList(await call("GET", pendingQuery), 0);

    // ── membership_sync ──
    const offeringUsersQuery = `/api/marketplace-offering-users/?${fields(OFFERING_USER_FIELDS)}&is_restricted=false&offering_uuid=${offering}&page_size=100`;
    const requested = await call("GET", offeringUsersQuery);
    expectList(requested, 3); // projectAdmin, projectManager, projectMember
    for (const ou of requested.body) {
      expect(Object.keys(ou).sort()).toEqual([...OFFERING_USER_FIELDS].sort());
      expect(ou).toMatchObject({ state: "Requested", username: null });
      expect(ou.uuid).toMatch(HEX);
      expect(ou.user_uuid).toMatch(HEX);
    }
    expect(requested.body.map((ou: any) => ou.user_username).sort()).toEqual(["projectAdmin", "projectManager", "projectMember"]);

    for (const ou of requested.body) {
      const begun = await call("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`);
      expect(begun.status, begun.text).toBe(200);
      const between = await call("GET", `/api/marketplace-offering-users/${ou.uuid}/?field=state`);
      expect(between.body).toEqual({ state: "Creating" });
      const patched = await call("PATCH", `/api/marketplace-offering-users/${ou.uuid}/`, { username: `hpc_${ou.user_username.toLowerCase()}` });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body).toMatchObject({ uuid: ou.uuid, username: `hpc_${ou.user_username.toLowerCase()}`, state: "OK" });
    }

    const provisioned = await call("GET", `${offeringUsersQuery}&state=OK`);
    expectList(provisioned, 3);
    const urlOf = new Map<string, string>(provisioned.body.map((ou: any) => [ou.username, ou.url]));
    expect([...urlOf.keys()].sort()).toEqual(["hpc_projectadmin", "hpc_projectmanager", "hpc_projectmember"]);
    expectList(await call("GET", `${offeringUsersQuery}&state=Requested&state=Creating`), 0);

    // ── report ──
    const { day, reportDate } = currentPeriod();
    const usagesQuery = `/api/marketplace-component-usages/?billing_period=${day}&field=uuid&field=type&field=usage&resource_uuid=${resource}&page_size=100`;
    const userUsagesQuery = `/api/marketplace-component-user-usages/?component_usage__billing_period=${day}&field=component_usage&resource_uuid=${resource}&page_size=100`;
    expectList(await call("GET", usagesQuery), 0);
    expectList(await call("GET", userUsagesQuery), 0);

    // The recorded agent sends the resource as hex; §13 shows it dashed: both are accepted.
    const first = await call("POST", "/api/marketplace-component-usages/set_usage/", {
      usages: [{ type: "cpu", amount: "6.40" }],
      resource,
      date: reportDate,
    });
    expect(first.status, first.text).toBe(201);
    expect(first.text).toBe("");
    const afterFirst = await call("GET", usagesQuery);
    expectList(afterFirst, 1);
    expect(afterFirst.body[0]).toMatchObject({ type: "cpu" });
    expect(Number(afterFirst.body[0].usage)).toBeCloseTo(6.4);

    const second = await call("POST", "/api/marketplace-component-usages/set_usage/", {
      usages: [{ type: "cpu", amount: "12.34" }],
      resource: dashed(resource),
      date: reportDate,
    });
    expect(second.status, second.text).toBe(201);
    const usages = await call("GET", usagesQuery);
    expectList(usages, 1); // replaced in the same month, not added
    expect(usages.body[0].uuid).toBe(afterFirst.body[0].uuid);
    expect(usages.body[0].uuid).toMatch(HEX);
    expect(Object.keys(usages.body[0]).sort()).toEqual(["type", "usage", "uuid"]);
    expect(Number(usages.body[0].usage)).toBeCloseTo(12.34);
    const componentUsage: string = usages.body[0].uuid;

    // Bulk per-user usage: one call per component usage (uuid passed as a UUID object, so dashed), amounts as floats.
    const userUsages = await call("POST", `/api/marketplace-component-usages/${dashed(componentUsage)}/set_user_usages/`, {
      usages: [
        { username: "hpc_projectadmin", usage: 5.5, date: reportDate, user: urlOf.get("hpc_projectadmin") },
        { username: "hpc_projectmember", usage: 6.84, date: reportDate, user: urlOf.get("hpc_projectmember") },
        { username: "hpc_unknown", usage: 0, date: reportDate },
      ],
    });
    expect(userUsages.status, userUsages.text).toBe(201);
    expect(userUsages.text).toBe("");

    const reportedUsers = await call("GET", userUsagesQuery);
    expectList(reportedUsers, 3);
    for (const row of reportedUsers.body) {
      expect(Object.keys(row)).toEqual(["component_usage"]);
      expect(row.component_usage).toMatch(new RegExp(`/api/marketplace-component-usages/${componentUsage}/$`));
    }

    // ── resulting state, through the API ──
    const finalOrder = await call("GET", `/api/marketplace-orders/${order.uuid}/`);
    expect(finalOrder.body).toMatchObject({ state: "done", marketplace_resource_uuid: resource });
    expect(finalOrder.body.completed_at).toEqual(expect.any(String));

    const finalResource = await call("GET", `/api/marketplace-provider-resources/${resource}/`);
    expect(finalResource.body).toMatchObject({ state: "OK" });
    expect(Number(finalResource.body.current_usages.cpu)).toBeCloseTo(12.34);

    const listedResources = await call("GET", `/api/marketplace-provider-resources/?field=uuid&field=state&offering_uuid=${offering}&state=OK&state=Erred&page_size=100`);
    expectList(listedResources, 1);
    expect(listedResources.body[0]).toEqual({ uuid: resource, state: "OK" });

    // The consumer sees the pushed usernames too.
    const consumerView = await t.http("GET", `/api/marketplace-offering-users/?offering_uuid=${offering}&user_uuid=${t.world.users.projectMember.uuid}`, {
      token: t.world.tokens.projectMember,
    });
    expectList(consumerView, 1);
    expect(consumerView.body[0]).toMatchObject({ username: "hpc_projectmember", state: "OK", user_username: "projectMember" });

    const stored = await call("GET", `/api/marketplace-component-user-usages/?resource_uuid=${resource}&o=username`);
    expectList(stored, 3);
    expect(stored.body.map((row: any) => [row.username, Number(row.usage), row.user, row.component_type])).toEqual([
      ["hpc_projectadmin", 5.5, urlOf.get("hpc_projectadmin"), "cpu"],
      ["hpc_projectmember", 6.84, urlOf.get("hpc_projectmember"), "cpu"],
      ["hpc_unknown", 0, "", "cpu"],
    ]);
    expect(stored.body.every((row: any) => row.billing_period?.startsWith(day))).toBe(true);

    // The next report cycle in the same month replaces each user's share.
    const again = await call("POST", `/api/marketplace-component-usages/${dashed(componentUsage)}/set_user_usages/`, {
      usages: [{ username: "hpc_projectadmin", usage: 7.25, date: reportDate, user: urlOf.get("hpc_projectadmin") }],
    });
    expect(again.status, again.text).toBe(201);
    const admin = await call("GET", `/api/marketplace-component-user-usages/?resource_uuid=${resource}&username=hpc_projectadmin`);
    expectList(admin, 1);
    expect(Number(admin.body[0].usage)).toBeCloseTo(7.25);
  });
});
