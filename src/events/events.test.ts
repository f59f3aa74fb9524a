import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import type { Persona } from "../../test/support/world.ts";
import { toHex } from "../platform/ids.ts";

let t: TestApp;
/** The offering user whose whole life (create, transitions, comments, delete) runs through REST in beforeAll. */
let lifecycle: { uuid: string; url: string };
let other: { uuid: string };
let newcomerUuid: string;
/** A UNIX second between the deletion and the later role grants. */
let boundary: number;

const http = (path: string, token = t.world.tokens.staff) => t.http("GET", path, { token });
const ouUrl = (uuid: string) => `${t.baseUrl}/api/marketplace-offering-users/${uuid}/`;
const types = (events: Array<{ event_type: string }>) => events.map((e) => e.event_type);

beforeAll(async () => {
  t = await startTestApp();
  const { world } = t;
  const owner = world.tokens.providerOwner;
  // Over a socket: the events record the client's address, which the ip_address tests below look for.
  const created = await t.socketHttp("POST", "/api/marketplace-offering-users/", {
    token: owner,
    body: { offering_uuid: world.offering.uuid, user_uuid: world.users.projectMember.uuid },
  });
  expect(created.status).toBe(201);
  lifecycle = { uuid: created.body.uuid, url: ouUrl(created.body.uuid) };
  const act = async (method: string, suffix: string, body?: unknown, token = owner) => {
    const res = await t.socketHttp(method, `/api/marketplace-offering-users/${lifecycle.uuid}/${suffix}`, { token, body });
    expect(res.status).toBeLessThan(300);
  };
  await act("POST", "begin_creating/");
  await act("PATCH", "update_comments/", { service_provider_comment: "Waiting for HR" });
  await act("POST", "set_pending_account_linking/", { comment: "Link your account" }, world.tokens.providerManager);
  await act("DELETE", "");

  const otherOu = await world.offeringUser("CREATION_REQUESTED");
  other = { uuid: otherOu.uuid };
  expect((await t.http("POST", `/api/marketplace-offering-users/${other.uuid}/set_error_creating/`, { token: owner })).status).toBe(200);

  boundary = Math.ceil(Date.now() / 1000) + 1;
  await new Promise((resolve) => setTimeout(resolve, boundary * 1000 - Date.now() + 20));
  const newcomer = await t.app.deps.db.user.create({ data: { username: "newcomer", firstName: "New", lastName: "Comer" } });
  newcomerUuid = toHex(newcomer.id);
  const customerGrant = await t.http("POST", `/api/customers/${world.provider.uuid}/add_user/`, {
    token: owner,
    body: { user: `${t.baseUrl}/api/users/${newcomerUuid}/`, role: "CUSTOMER.SUPPORT" },
  });
  expect(customerGrant.status).toBe(201);
  const projectGrant = await t.http("POST", `/api/projects/${world.project.uuid}/add_user/`, {
    token: world.tokens.staff,
    body: { user: newcomerUuid, role: "PROJECT.MEMBER" },
  });
  expect(projectGrant.status).toBe(201);
});
afterAll(() => t.close());

describe("GET /api/events/: every change writes an event", () => {
  it("the offering user's life, oldest first, as Waldur's event types", async () => {
    const res = await http(`/api/events/?scope=${encodeURIComponent(lifecycle.url)}&o=created`);
    expect(res.status).toBe(200);
    expect(types(res.body)).toEqual([
      "marketplace_offering_user_created",
      "marketplace_offering_user_updated",
      "marketplace_offering_user_updated",
      "marketplace_offering_user_restriction_updated",
      "marketplace_offering_user_deleted",
    ]);
    const [created, begun, commented, linking] = res.body;
    expect(created.context).toMatchObject({ offering_user_uuid: lifecycle.uuid, affected_user_uuid: t.world.users.projectMember.uuid });
    expect(begun.context).toMatchObject({ old_state: "Requested", new_state: "Creating", user_uuid: t.world.users.providerOwner.uuid });
    expect(commented.context).toMatchObject({
      changed_fields: ["service_provider_comment"],
      new_service_provider_comment: "Waiting for HR",
    });
    expect(linking.context).toMatchObject({ new_state: "Pending account linking", user_uuid: t.world.users.providerManager.uuid });
  });

  it("records have exactly Waldur's fields: uuid (hex), created (ISO, Z), event_type, message, context", async () => {
    const res = await http(`/api/events/?scope=${encodeURIComponent(lifecycle.url)}`);
    for (const event of res.body) {
      expect(Object.keys(event).sort()).toEqual(["context", "created", "event_type", "message", "uuid"]);
      expect(event.uuid).toMatch(/^[0-9a-f]{32}$/);
      expect(event.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
      expect(typeof event.message).toBe("string");
      expect(event.message.length).toBeGreaterThan(0);
    }
    expect(res.body[0].message).toBe("Offering user projectMember in offering HPC has been deleted.");
  });

  it("a role grant through add_user writes role_granted", async () => {
    const res = await http(`/api/events/?event_type=role_granted&customer_uuid=${t.world.provider.uuid}`);
    expect(res.body).toHaveLength(1);
    expect(res.body[0].context).toMatchObject({ affected_user_uuid: newcomerUuid, role_name: "CUSTOMER.SUPPORT" });
  });
});

describe("filters", () => {
  it("event_type is repeatable and exact", async () => {
    const res = await http("/api/events/?event_type=marketplace_offering_user_created&event_type=marketplace_offering_user_deleted");
    expect(new Set(types(res.body))).toEqual(new Set(["marketplace_offering_user_created", "marketplace_offering_user_deleted"]));
    expect((await http("/api/events/?event_type=marketplace_offering_user")).body).toEqual([]);
  });

  it("scope takes the URL of an offering user or of an offering", async () => {
    const ofOther = await http(`/api/events/?scope=${encodeURIComponent(ouUrl(other.uuid))}`);
    expect(ofOther.body.map((e: any) => e.context.offering_user_uuid)).toEqual([other.uuid]);
    const offeringUrl = `${t.baseUrl}/api/marketplace-provider-offerings/${t.world.offering.uuid}/`;
    const ofOffering = await http(`/api/events/?scope=${encodeURIComponent(offeringUrl)}`);
    expect(new Set(ofOffering.body.map((e: any) => e.context.offering_user_uuid))).toEqual(new Set([lifecycle.uuid, other.uuid]));
    expect(ofOffering.headers.get("x-result-count")).toBe("6");
  });

  it("created_from (inclusive) and created_to (exclusive) are UNIX timestamps", async () => {
    const later = await http(`/api/events/?created_from=${boundary}`);
    expect(new Set(types(later.body))).toEqual(new Set(["role_granted"]));
    const earlier = await http(`/api/events/?created_to=${boundary}`);
    expect(earlier.headers.get("x-result-count")).toBe("6");
    expect(types(earlier.body)).not.toContain("role_granted");
    expect((await http(`/api/events/?created_from=${boundary}&created_to=${boundary}`)).body).toEqual([]);
  });

  it("message is a case-insensitive substring", async () => {
    const res = await http("/api/events/?message=HAS%20BEEN%20DELETED");
    expect(types(res.body)).toEqual(["marketplace_offering_user_deleted"]);
  });

  it("user_uuid, customer_uuid and project_uuid select the events concerning that object", async () => {
    const byManager = await http(`/api/events/?user_uuid=${t.world.users.providerManager.uuid}`);
    expect(types(byManager.body)).toEqual(["marketplace_offering_user_restriction_updated"]);
    const aboutNewcomer = await http(`/api/events/?user_uuid=${newcomerUuid}`);
    expect(aboutNewcomer.headers.get("x-result-count")).toBe("2");
    const ofConsumer = await http(`/api/events/?customer_uuid=${t.world.consumer.uuid}`);
    expect(ofConsumer.body.map((e: any) => e.context.role_name)).toEqual(["PROJECT.MEMBER"]);
    const ofProject = await http(`/api/events/?project_uuid=${t.world.project.uuid}`);
    expect(ofProject.body).toEqual(ofConsumer.body);
    const ofProvider = await http(`/api/events/?customer_uuid=${t.world.provider.uuid}`);
    expect(ofProvider.headers.get("x-result-count")).toBe("7");
  });

  it("o=created and o=-created order by time; the default is -created", async () => {
    const all = "/api/events/?page_size=50";
    const times = (res: { body: Array<{ created: string }> }) => res.body.map((e) => Date.parse(e.created));
    const ascending = times(await http(`${all}&o=created`));
    expect(ascending).toHaveLength(8);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    const descending = await http(`${all}&o=-created`);
    expect(times(descending)).toEqual([...ascending].reverse());
    expect((await http(all)).body).toEqual(descending.body);
  });

  it.each([
    ["o=modified", "o"],
    ["created_from=yesterday", "created_from"],
    ["created_to=abc", "created_to"],
    ["user_uuid=nope", "user_uuid"],
    ["customer_uuid=123", "customer_uuid"],
    ["project_uuid=zz", "project_uuid"],
    ["scope=not-a-url", "scope"],
    [`scope=${encodeURIComponent("http://host/api/unknown-things/0123456789abcdef0123456789abcdef/")}`, "scope"],
  ])("a bad value (%s) gives 400 naming the parameter", async (query, field) => {
    const res = await http(`/api/events/?${query}`);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual([field]);
    expect(res.body[field][0]).toEqual(expect.any(String));
  });
});

describe("retrieve, count and pagination", () => {
  it("GET /api/events/{id}/ takes the integer id; unknown ids give 404", async () => {
    const row = await t.app.deps.db.event.findFirstOrThrow({ where: { eventType: "marketplace_offering_user_deleted" } });
    const res = await http(`/api/events/${row.id}/`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid: toHex(row.uuid), event_type: "marketplace_offering_user_deleted" });
    expect((await http("/api/events/999999/")).status).toBe(404);
    expect((await http("/api/events/not-an-id/")).status).toBe(404);
  });

  it("count/ answers {count: N} under the same filters as the list", async () => {
    expect((await http("/api/events/count/")).body).toEqual({ count: 8 });
    const filtered = await http("/api/events/count/?event_type=marketplace_offering_user_updated&event_type=role_granted");
    expect(filtered.body).toEqual({ count: 5 });
    expect((await http("/api/events/count/?user_uuid=bogus")).status).toBe(400);
  });

  it("pages: bare array, X-Result-Count and Link; a page past the end is 404", async () => {
    const first = await http("/api/events/?page_size=3");
    expect(first.body).toHaveLength(3);
    expect(first.headers.get("x-result-count")).toBe("8");
    expect(first.headers.get("link")).toContain('rel="next"');
    const last = await http("/api/events/?page_size=3&page=3");
    expect(last.body).toHaveLength(2);
    expect(last.headers.get("link")).not.toContain('rel="next"');
    expect(last.headers.get("link")).toContain('rel="prev"');
    const pages = [first, await http("/api/events/?page_size=3&page=2"), last].flatMap((r) => r.body.map((e: any) => e.uuid));
    expect(new Set(pages).size).toBe(8);
    expect((await http("/api/events/?page_size=3&page=4")).status).toBe(404);
  });
});

describe("visibility", () => {
  it("staff and support see every event", async () => {
    const total = await t.app.deps.db.event.count();
    expect((await http("/api/events/count/")).body.count).toBe(total);
    expect((await http("/api/events/count/", t.world.tokens.support)).body.count).toBe(total);
  });

  it("an unrelated user sees none of the provider's events, by list, count or id", async () => {
    const token = t.world.tokens.unrelated;
    const list = await http("/api/events/", token);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    expect(list.headers.get("x-result-count")).toBe("0");
    expect((await http(`/api/events/?scope=${encodeURIComponent(lifecycle.url)}`, token)).body).toEqual([]);
    expect((await http("/api/events/count/", token)).body).toEqual({ count: 0 });
    const row = await t.app.deps.db.event.findFirstOrThrow();
    expect((await http(`/api/events/${row.id}/`, token)).status).toBe(404);
  });

  it("the provider owner sees the offering's events but not the consumer project's", async () => {
    const token = t.world.tokens.providerOwner;
    const offeringUrl = `${t.baseUrl}/api/marketplace-provider-offerings/${t.world.offering.uuid}/`;
    const mine = await http(`/api/events/?scope=${encodeURIComponent(offeringUrl)}`, token);
    expect(mine.headers.get("x-result-count")).toBe("6");
    expect((await http(`/api/events/?project_uuid=${t.world.project.uuid}`, token)).body).toEqual([]);
    expect((await http("/api/events/count/", token)).body).toEqual({ count: 7 });
  });

  it("the user an offering user belongs to sees the events about it", async () => {
    const res = await http(`/api/events/?scope=${encodeURIComponent(lifecycle.url)}`, t.world.tokens.projectMember);
    expect(res.headers.get("x-result-count")).toBe("5");
  });

  it("anonymous callers get 401", async () => {
    const res = await t.http("GET", "/api/events/");
    expect(res.status).toBe(401);
  });
});

describe("ip_address: only staff, support and the user who caused the event", () => {
  /** The offering user's creation (by the owner) and its move to pending account linking (by the manager). */
  const addresses = async (persona: Persona) => {
    const res = await http(`/api/events/?scope=${encodeURIComponent(lifecycle.url)}&o=created`, t.world.tokens[persona]);
    const [created, , , linking] = res.body as Array<{ context: { ip_address: string | null } }>;
    return [created.context.ip_address !== null, linking.context.ip_address !== null];
  };
  const CASES: Array<[Persona, [boolean, boolean]]> = [
    ["staff", [true, true]],
    ["support", [true, true]],
    ["providerOwner", [true, false]],
    ["providerManager", [false, true]],
    ["projectMember", [false, false]],
  ];
  for (const [persona, expected] of CASES) {
    it(`${persona} sees the address of [creation, linking]: ${JSON.stringify(expected)}`, async () => {
      expect(await addresses(persona)).toEqual(expected);
    });
  }

  it("GraphQL hides it the same way, and keeps the key", async () => {
    const query = `query($filter: EventFilter) { events(filter: $filter, orderBy: CREATED_ASC) { nodes { context } } }`;
    const filter = { scope: [lifecycle.uuid] };
    const res = await t.gql(query, { filter }, t.world.tokens.providerManager);
    expect(res.data.events.nodes[0].context).toMatchObject({ ip_address: null, user_uuid: t.world.users.providerOwner.uuid });
  });
});

describe("GraphQL events and eventCount", () => {
  const QUERY = `query($filter: EventFilter, $orderBy: EventOrder, $first: Int) {
    events(filter: $filter, orderBy: $orderBy, first: $first) { totalCount nodes { eventId uuid eventType context } pageInfo { hasNextPage } }
    eventCount(filter: $filter)
  }`;

  it("filters by scope and type, orders, pages and counts like REST", async () => {
    const filter = { scope: [lifecycle.uuid], eventType: ["marketplace_offering_user_updated", "marketplace_offering_user_deleted"] };
    const result = await t.gql(QUERY, { filter, orderBy: "CREATED_ASC", first: 2 }, t.world.tokens.providerOwner);
    expect(result.errors).toBeUndefined();
    expect(result.data.eventCount).toBe(3);
    expect(result.data.events.totalCount).toBe(3);
    expect(result.data.events.pageInfo.hasNextPage).toBe(true);
    expect(result.data.events.nodes.map((n: any) => n.eventType)).toEqual(["marketplace_offering_user_updated", "marketplace_offering_user_updated"]);
    const single = await t.gql(`query($id: ID!) { event(id: $id) { uuid } }`, { id: String(result.data.events.nodes[0].eventId) }, t.world.tokens.staff);
    expect(single.data.event.uuid).toBe(result.data.events.nodes[0].uuid);
  });

  it("an unrelated viewer counts 0; an anonymous one is refused", async () => {
    expect((await t.gql(`{ eventCount }`, {}, t.world.tokens.unrelated)).data.eventCount).toBe(0);
    const anonymous = await t.gql(`{ eventCount }`);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("createdFrom must be a number", async () => {
    const bad = await t.gql(QUERY, { filter: { createdFrom: "soon" } }, t.world.tokens.staff);
    expect(bad.errors?.length).toBeGreaterThan(0);
    expect(bad.data).toBeUndefined();
  });
});
