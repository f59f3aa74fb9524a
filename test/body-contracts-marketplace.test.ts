import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toHex } from "../src/platform/ids.ts";
import { startTestApp, type TestApp } from "./support/app.ts";
import { makeResource, userWithRoles } from "./support/order-fixtures.ts";

/** Orders, resources, offering users, usage and per-user limits declare their bodies and query parameters as data. */

let t: TestApp;
let doc: any;
let resource: { id: string; uuid: string };
let cpu: string;
beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.http("GET", "/api/schema/")).body;
  resource = await makeResource(t.app.deps.db, t.world, "OK", { name: "declared" });
  cpu = toHex((await t.app.deps.db.offeringComponent.findFirstOrThrow({ where: { offeringId: t.world.offering.id, type: "cpu" } })).id);
});
afterAll(() => t.close());

const requestSchema = (method: string, path: string) => doc.paths[path][method].requestBody?.content["application/json"].schema;
const parameters = (method: string, path: string) => doc.paths[path][method].parameters.map((p: { name?: string }) => p.name);

describe("documented", () => {
  it("the bodies of order creation and its actions", () => {
    const create = requestSchema("post", "/api/marketplace-orders/");
    expect(create.required).toEqual(["offering", "project"]);
    expect(create.properties.type.enum).toEqual(["Create", "Update", "Terminate"]);
    expect(create.properties.plan).toMatchObject({ type: "string", format: "uri" });
    expect(Object.keys(requestSchema("post", "/api/marketplace-orders/{uuid}/set_state_erred/").properties)).toEqual(["error_message", "error_traceback"]);
    expect(Object.keys(requestSchema("post", "/api/marketplace-orders/{uuid}/approve_by_provider/").properties)).toEqual(["attributes"]);
    expect(requestSchema("post", "/api/marketplace-orders/{uuid}/approve_by_consumer/")).toBeUndefined();
    expect(requestSchema("post", "/api/marketplace-orders/{uuid}/set_backend_id/").required).toEqual(["backend_id"]);
  });

  it("the resource write-backs, and team/'s has_consent", () => {
    const resources = "/api/marketplace-provider-resources/{uuid}";
    expect(requestSchema("post", `${resources}/set_limits/`).required).toEqual(["limits"]);
    expect(requestSchema("post", `${resources}/set_membership_sync_statuses/`).required).toEqual(["statuses"]);
    expect(Object.keys(requestSchema("post", `${resources}/set_end_date/`).properties)).toEqual(["end_date"]);
    expect(requestSchema("post", `${resources}/set_as_ok/`)).toBeUndefined();
    expect(parameters("get", `${resources}/team/`)).toContain("has_consent");
  });

  it("user usages and per-user limits", () => {
    const userUsages = requestSchema("post", "/api/marketplace-component-usages/{uuid}/set_user_usages/");
    expect(userUsages.properties.usages.items.required).toEqual(["username", "usage"]);
    const limit = requestSchema("post", "/api/component-user-usage-limits/");
    expect(limit.required).toEqual(["resource", "user", "limit"]);
    expect(limit.anyOf).toEqual([{ required: ["component"] }, { required: ["component_type"] }]);
    expect(requestSchema("put", "/api/component-user-usage-limits/{uuid}/").required).toEqual(["limit"]);
    expect(requestSchema("patch", "/api/component-user-usage-limits/{uuid}/").required).toBeUndefined();
  });
});

describe("read as before", () => {
  const staff = () => t.world.tokens.staff;

  it("an order type that is no string is refused as one; a plan of '' or null is no plan", async () => {
    const order = (body: Record<string, unknown>) =>
      t.http("POST", "/api/marketplace-orders/", {
        token: staff(),
        body: { offering: t.world.offering.uuid, project: t.world.project.uuid, attributes: { name: "a" }, ...body },
      });
    expect((await order({ type: 5 })).body).toEqual({ type: ["Not a valid string."] });
    expect((await order({ plan: "" })).status).toBe(201);
    expect((await order({ plan: null })).status).toBe(201);
  });

  it("a per-user limit by component leaves component_type unread; without component, component_type is required", async () => {
    const user = toHex((await userWithRoles(t.app.deps.db, [])).id);
    const body = { resource: resource.uuid, user, limit: "1" };
    const byComponent = await t.http("POST", "/api/component-user-usage-limits/", { token: staff(), body: { ...body, component: cpu, component_type: 5 } });
    expect(byComponent.status).toBe(201);
    const missing = await t.http("POST", "/api/component-user-usage-limits/", { token: staff(), body: { user, limit: "x" } });
    expect(missing.body).toEqual({
      resource: ["This field is required."],
      component_type: ["This field is required."],
      limit: ["A valid number is required."],
    });
  });

  it("an offering user's group must be whole", async () => {
    const res = await t.http("POST", "/api/marketplace-offering-users/", { token: staff(), body: { offering: t.world.offering.uuid } });
    expect(res.body).toEqual({ user: ["This field is required."] });
  });
});
