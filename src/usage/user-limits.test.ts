import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import type { Persona } from "../../test/support/world.ts";
import { makeOffering, makeResource, userWithRoles } from "../../test/support/order-fixtures.ts";
import { toHex } from "../platform/ids.ts";
import { globalId } from "../../test/support/global-ids.ts";

let t: TestApp;
const BASE = "/api/component-user-usage-limits/";
const FIELDS = ["component", "component_type", "created", "limit", "modified", "resource", "resource_name", "resource_uuid", "url", "user", "user_uuid", "username", "uuid"];
let resource: { id: string; uuid: string };
let cpu: { id: string; uuid: string };

beforeAll(async () => {
  t = await startTestApp();
  resource = await makeResource(t.app.deps.db, t.world, "OK", { name: "limited" });
  const component = await t.app.deps.db.offeringComponent.findFirstOrThrow({ where: { offeringId: t.world.offering.id, type: "cpu" } });
  cpu = { id: component.id, uuid: toHex(component.id) };
});
afterAll(() => t.close());

const owner = () => t.world.tokens.providerOwner;
const create = (body: Record<string, unknown>, token = owner()) => t.http("POST", BASE, { token, body });
const freshUser = async () => toHex((await userWithRoles(t.app.deps.db, [])).id);
const limitFor = (user: string, extra: Record<string, unknown> = {}) => ({ resource: resource.uuid, component_type: "cpu", user, limit: "10", ...extra });

describe("creating per-user component limits", () => {
  it("creates with Waldur's fields; limits are strings with 2 decimals", async () => {
    const user = t.world.users.projectMember.uuid;
    const res = await create({
      resource: `${t.baseUrl}/api/marketplace-resources/${resource.uuid}/`,
      component_type: "cpu",
      user: `${t.baseUrl}/api/users/${user}/`,
      limit: "10.5",
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(FIELDS);
    expect(res.body).toMatchObject({
      url: `${t.baseUrl}/api/component-user-usage-limits/${res.body.uuid}/`,
      resource: `${t.baseUrl}/api/marketplace-provider-resources/${resource.uuid}/`,
      resource_uuid: resource.uuid,
      resource_name: "limited",
      component: cpu.uuid,
      component_type: "cpu",
      user: `${t.baseUrl}/api/users/${user}/`,
      user_uuid: user,
      username: "projectMember",
      limit: "10.50",
    });
    const numeric = await create(limitFor(await freshUser(), { component_type: "ram", limit: 7 }));
    expect(numeric).toMatchObject({ status: 201, body: { limit: "7.00", component_type: "ram" } });
  });

  it.each([
    ["a negative limit", { limit: -1 }, { limit: ["Ensure this value is greater than or equal to 0."] }],
    ["three decimals", { limit: "1.234" }, { limit: ["Ensure that there are no more than 2 decimal places."] }],
    ["a word", { limit: "lots" }, { limit: ["A valid number is required."] }],
    ["an object", { limit: {} }, { limit: ["A valid number is required."] }],
    ["a null limit", { limit: null }, { limit: ["This field may not be null."] }],
    ["an unknown resource", { resource: "0".repeat(32) }, { resource: ["Invalid hyperlink - Object does not exist."] }],
    ["a resource URL of another kind", { resource: "http://x/api/users/1/" }, { resource: ["Invalid hyperlink - Object does not exist."] }],
    ["an unknown user", { user: "0".repeat(32) }, { user: ["Invalid hyperlink - Object does not exist."] }],
    ["an unknown component type", { component_type: "gpu" }, { component_type: ['The offering of this resource has no component of type "gpu".'] }],
    ["a blank component type", { component_type: "" }, { component_type: ["This field may not be blank."] }],
  ])("400 for %s", async (_name, change, errors) => {
    const res = await create(limitFor(await freshUser(), change));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
  });

  it("reports every missing field at once and refuses a second limit for the same resource, component and user", async () => {
    expect((await create({})).body).toEqual({
      resource: ["This field is required."],
      component_type: ["This field is required."],
      user: ["This field is required."],
      limit: ["This field is required."],
    });
    const user = await freshUser();
    expect((await create(limitFor(user))).status).toBe(201);
    const again = await create(limitFor(user, { limit: "20" }));
    expect(again).toMatchObject({ status: 400, body: { non_field_errors: ["The fields resource, component, user must make a unique set."] } });
    const racer = await freshUser();
    const racing = await Promise.all(Array.from({ length: 4 }, () => create(limitFor(racer))));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
  });

  it.each([
    ["staff", 201],
    ["providerOwner", 201],
    ["providerManager", 201],
    ["offeringManager", 201],
    ["support", 403],
    ["providerSupport", 403],
    ["projectAdmin", 403],
    ["projectMember", 403],
    ["unrelated", 400],
  ] as Array<[Persona, number]>)("create as %s → %i", async (persona, status) => {
    expect((await create(limitFor(await freshUser()), t.world.tokens[persona])).status).toBe(status);
  });

  it("401 for anonymous callers", async () => {
    expect((await t.http("POST", BASE, { body: limitFor(t.world.users.unrelated.uuid) })).status).toBe(401);
    expect((await t.http("GET", BASE)).status).toBe(401);
  });
});

describe("reading, changing and deleting limits", () => {
  let own: { uuid: string; user: string };
  let other: { uuid: string };

  beforeAll(async () => {
    const offering = await makeOffering(t.app.deps.db, t.world, "Marketplace.Basic");
    const otherResource = await makeResource(t.app.deps.db, t.world, "OK", { offeringId: offering.id });
    const user = await freshUser();
    own = { uuid: (await create(limitFor(user, { limit: "1" }))).body.uuid, user };
    other = (await create({ resource: otherResource.uuid, component_type: "cpu", user, limit: "2" })).body;
  });

  const list = (query: string, token = owner()) => t.http("GET", `${BASE}?${query}`, { token });
  const uuidsOf = (rows: Array<{ uuid: string }>) => rows.map((r) => r.uuid).sort();

  it("shows limits to both sides of the resource and filters them", async () => {
    const byUser = await list(`user_uuid=${own.user}`);
    expect(byUser.headers.get("x-result-count")).toBe("2");
    expect(uuidsOf(byUser.body)).toEqual([own.uuid, other.uuid].sort());
    expect(uuidsOf((await list(`user_uuid=${own.user}`, t.world.tokens.projectMember)).body)).toEqual([own.uuid, other.uuid].sort());
    expect((await list(`user_uuid=${own.user}`, t.world.tokens.unrelated)).body).toEqual([]);
    expect(uuidsOf((await list(`user_uuid=${own.user}&resource_uuid=${resource.uuid}`)).body)).toEqual([own.uuid]);
    expect(uuidsOf((await list(`user=${encodeURIComponent(`${t.baseUrl}/api/users/${own.user}/`)}&offering_uuid=${t.world.offering.uuid}`)).body)).toEqual([own.uuid]);
    expect(uuidsOf((await list(`user_uuid=${own.user}&component_uuid=${cpu.uuid}`)).body)).toEqual([own.uuid]);
    expect((await list(`user_uuid=${own.user}&component_type=ram`)).body).toEqual([]);
    const page = await list(`user_uuid=${own.user}&page_size=1&page=2&o=-limit`);
    expect(page.body.map((l: { uuid: string }) => l.uuid)).toEqual([own.uuid]);
    expect(page.headers.get("x-result-count")).toBe("2");
    expect((await list("resource_uuid=nope")).status).toBe(400);
    expect((await list("o=bogus")).status).toBe(400);
  });

  it("retrieves for either side (others 404)", async () => {
    const path = `${BASE}${own.uuid}/`;
    expect((await t.http("GET", path, { token: t.world.tokens.projectAdmin })).body).toMatchObject({ uuid: own.uuid, limit: "1.00" });
    expect((await t.http("GET", path, { token: t.world.tokens.unrelated })).status).toBe(404);
    expect((await t.http("GET", `${BASE}garbage/`, { token: owner() })).status).toBe(404);
  });

  it("changes the limit from the provider side only; PUT needs a limit, PATCH {} changes nothing", async () => {
    const path = `${BASE}${own.uuid}/`;
    const patch = (body: unknown, token = owner(), method = "PATCH") => t.http(method, path, { token, body });
    expect((await patch({ limit: "3.5" }, t.world.tokens.projectAdmin)).status).toBe(403);
    expect((await patch({ limit: "3.5" }, t.world.tokens.support)).status).toBe(403);
    expect((await patch({ limit: "3.5" }, t.world.tokens.unrelated)).status).toBe(404);
    expect((await patch({ limit: "-3" })).body).toEqual({ limit: ["Ensure this value is greater than or equal to 0."] });
    expect((await patch({}, owner(), "PUT")).body).toEqual({ limit: ["This field is required."] });
    expect(await patch({ limit: 3.5, user: t.world.users.unrelated.uuid })).toMatchObject({ status: 200, body: { limit: "3.50", user_uuid: own.user } });
    expect(await patch({})).toMatchObject({ status: 200, body: { limit: "3.50" } });
    expect(await patch({ limit: "4" }, t.world.tokens.offeringManager, "PUT")).toMatchObject({ status: 200, body: { limit: "4.00" } });
  });

  it("deletes from the provider side (204) and records created, updated and deleted events", async () => {
    const user = await freshUser();
    const created = (await create(limitFor(user, { limit: "5" }))).body;
    const path = `${BASE}${created.uuid}/`;
    await t.http("PATCH", path, { token: owner(), body: { limit: "6" } });
    expect((await t.http("DELETE", path, { token: t.world.tokens.projectAdmin })).status).toBe(403);
    expect((await t.http("DELETE", path, { token: t.world.tokens.unrelated })).status).toBe(404);
    expect((await t.http("DELETE", path, { token: t.world.tokens.providerManager })).status).toBe(204);
    expect((await t.http("GET", path, { token: owner() })).status).toBe(404);
    const events = await t.http("GET", `/api/events/?user_uuid=${user}&o=created`, { token: t.world.tokens.staff });
    expect(events.body.map((e: { event_type: string }) => e.event_type)).toEqual([
      "component_user_usage_limit_created",
      "component_user_usage_limit_updated",
      "component_user_usage_limit_deleted",
    ]);
    expect(events.body[1].context).toMatchObject({ old_limit: "5.00", limit: "6.00", resource_uuid: resource.uuid, component_type: "cpu" });
    const resourceUrl = `${t.baseUrl}/api/marketplace-provider-resources/${resource.uuid}/`;
    const byResource = await t.http("GET", `/api/events/?scope=${encodeURIComponent(resourceUrl)}&event_type=component_user_usage_limit_deleted`, { token: t.world.tokens.projectMember });
    expect(byResource.body.map((e: { context: { component_user_usage_limit_uuid: string } }) => e.context.component_user_usage_limit_uuid)).toContain(created.uuid);
  });
});

describe("per-user component limits over GraphQL", () => {
  it("creates, lists, updates and deletes", async () => {
    const user = await freshUser();
    const token = owner();
    const create = `mutation($r: ID!, $u: ID!, $limit: String!) {
      createComponentUserUsageLimit(input: { resourceUuid: $r, userUuid: $u, componentType: "cpu", limit: $limit }) {
        ... on ComponentUserUsageLimit { uuid limit component { type } username resource { name } } ${failuresOf("createComponentUserUsageLimit")} } }`;
    const created = (await t.gql(create, { r: resource.uuid, u: user, limit: "12" }, token)).data.createComponentUserUsageLimit;
    expect(created).toMatchObject({ limit: "12.00", component: { type: "cpu" }, resource: { name: "limited" } });
    const bad = (await t.gql(create, { r: resource.uuid, u: user, limit: "-1" }, token)).data.createComponentUserUsageLimit;
    expect(bad).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(bad)).toEqual({ limit: ["Ensure this value is greater than or equal to 0."] });
    const listed = await t.gql(`query($u: [ID!]) { componentUserUsageLimits(filter: { userUuid: $u }) { totalCount nodes { uuid } } }`, { u: [user] }, token);
    expect(listed.data.componentUserUsageLimits).toEqual({ totalCount: 1, nodes: [{ uuid: created.uuid }] });
    const updated = await t.gql(
      `mutation($id: ID!) { updateComponentUserUsageLimit(input: { id: $id, limit: "0" }) { ... on ComponentUserUsageLimit { limit } } }`,
      { id: globalId("ComponentUserUsageLimit", created.uuid) },
      token,
    );
    expect(updated.data.updateComponentUserUsageLimit.limit).toBe("0.00");
    const remove = `mutation($id: ID!) { deleteComponentUserUsageLimit(input: { id: $id }) { ... on Deletion { uuid } ${failuresOf("deleteComponentUserUsageLimit")} } }`;
    const limitId = globalId("ComponentUserUsageLimit", created.uuid);
    const forbidden = await t.gql(remove, { id: limitId }, t.world.tokens.projectMember);
    expect(forbidden.data.deleteComponentUserUsageLimit).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
    expect((await t.gql(remove, { id: limitId }, token)).data.deleteComponentUserUsageLimit).toEqual({ uuid: created.uuid });
    expect((await t.gql(`query($id: ID!) { componentUserUsageLimit(uuid: $id) { uuid } }`, { id: created.uuid }, token)).data).toEqual({ componentUserUsageLimit: null });
  });
});

describe("per-user limit errors over GraphQL name CreateComponentUserUsageLimitInput's fields", () => {
  const CREATE = `mutation($input: CreateComponentUserUsageLimitInput!) { createComponentUserUsageLimit(input: $input) { ... on ComponentUserUsageLimit { uuid } ${failuresOf("createComponentUserUsageLimit")} } }`;
  const createOver = async (input: Record<string, unknown>) => {
    const result = (await t.gql(CREATE, { input: { resourceUuid: resource.uuid, limit: "1", ...input } }, owner())).data.createComponentUserUsageLimit;
    return "code" in result ? { code: result.code, fields: fieldsOf(result) } : undefined;
  };

  it("names resourceUuid, userUuid, componentUuid and componentType", async () => {
    const user = await freshUser();
    expect(await createOver({ resourceUuid: "0".repeat(32), userUuid: user, componentType: "cpu" })).toEqual({
      code: "VALIDATION", fields: { resourceUuid: ["Object does not exist."] },
    });
    expect(await createOver({ userUuid: "0".repeat(32), componentType: "cpu" })).toEqual({ code: "VALIDATION", fields: { userUuid: ["Object does not exist."] } });
    expect(await createOver({ userUuid: user })).toEqual({ code: "VALIDATION", fields: { componentUuid: ["This field is required."] } });
    expect(await createOver({ userUuid: user, componentType: "gpu" })).toEqual({
      code: "VALIDATION", fields: { componentType: ['The offering of this resource has no component of type "gpu".'] },
    });
  });

  it("a second limit for the same resource, component and user is about the whole input", async () => {
    const user = await freshUser();
    expect(await createOver({ userUuid: user, componentUuid: cpu.uuid })).toBeUndefined();
    expect(await createOver({ userUuid: user, componentType: "cpu" })).toEqual({
      code: "VALIDATION", fields: { input: ["The fields resource, component, user must make a unique set."] },
    });
  });
});
