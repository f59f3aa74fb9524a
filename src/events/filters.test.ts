import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventScopeType } from "../generated/prisma/client.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { responseProblems, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { toHex } from "../platform/ids.ts";

/** The Waldur filters of /api/events/ beyond the basic ones, on events written straight into the log. */

let t: TestApp;
type Key = "joined" | "granted" | "terms" | "resource" | "ssh";
const ids = {} as Record<Key, number>;
const ref = {} as { u1: string; u2: string; termsId: string; resourceId: string; customerId: string; offeringId: string };

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const u1 = await db.user.create({ data: { username: "ev.one" } });
  const u2 = await db.user.create({ data: { username: "ev.two" } });
  const offeringId = t.world.offering.id;
  const customerId = t.world.provider.id;
  const termsId = (await db.offeringTermsOfService.create({ data: { offeringId, version: "1" } })).id;
  const resourceId = "5a1d0c6e-0000-4000-8000-000000000001";
  Object.assign(ref, { u1: u1.id, u2: u2.id, termsId, resourceId, customerId, offeringId });
  const events: Array<[Key, string, Record<string, string>, Array<[EventScopeType, string]>]> = [
    ["joined", "marketplace_offering_user_created", { user_uuid: toHex(u1.id) }, [["USER", u1.id], ["OFFERING", offeringId]]],
    ["granted", "role_granted", { affected_user_uuid: toHex(u2.id) }, [["USER", u2.id], ["CUSTOMER", customerId]]],
    ["terms", "terms_of_service_created", { auth_method: "token" }, [["TERMS_OF_SERVICE", termsId], ["OFFERING", offeringId], ["CUSTOMER", customerId]]],
    ["resource", "marketplace_resource_create_succeeded", { auth_method: "pat", pat_uuid: "pat-1" }, [["RESOURCE", resourceId]]],
    ["ssh", "ssh_key_creation_succeeded", {}, [["USER", u1.id]]],
  ];
  for (const [index, [key, eventType, context, scopes]] of events.entries()) {
    const event = await db.event.create({
      data: {
        eventType,
        message: `${key} happened`,
        context,
        created: new Date(Date.UTC(2024, 0, index + 1)),
        scopes: { createMany: { data: scopes.map(([scopeType, scopeId]) => ({ scopeType, scopeId })) } },
      },
    });
    ids[key] = event.id;
  }
});
afterAll(() => t.close());

/** The events a staff list returns for `query`, oldest first, by their keys. */
async function list(query: string): Promise<string[]> {
  const res = await t.http("GET", `/api/events/?o=created&${query}`, { token: t.world.tokens.staff });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return (res.body as Array<{ message: string }>).map((event) => event.message.replace(" happened", ""));
}

describe("Waldur's event filters", () => {
  const url = (collection: string, id: string) => encodeURIComponent(`${t.baseUrl}/api/${collection}/${toHex(id)}/`);
  const cases: Array<[string, () => string, Key[]]> = [
    ["feature: one group", () => "feature=permissions", ["granted"]],
    ["feature: users takes offering users and SSH keys", () => "feature=users", ["joined", "ssh"]],
    ["feature: ssh", () => "feature=ssh", ["ssh"]],
    ["feature: repeated groups add up", () => "feature=terms_of_service&feature=resources", ["terms", "resource"]],
    ["feature: an unknown group matches nothing", () => "feature=invoices", []],
    ["feature and event_type narrow together", () => "feature=users&event_type=ssh_key_creation_succeeded", ["ssh"]],
    ["event_type is read per value, not split at commas", () => "event_type=role_granted,terms_of_service_created", []],
    ["related_user_uuid: the user who acted", () => `related_user_uuid=${toHex(ref.u1)}`, ["joined", "ssh"]],
    ["related_user_uuid: the user affected", () => `related_user_uuid=${toHex(ref.u2)}`, ["granted"]],
    ["auth_method", () => "auth_method=pat", ["resource"]],
    ["auth_method another", () => "auth_method=token", ["terms"]],
    ["pat_uuid", () => "pat_uuid=pat-1", ["resource"]],
    ["pat_uuid nobody used", () => "pat_uuid=pat-2", []],
    ["scope: terms of service", () => `scope=${url("marketplace-offering-terms-of-service", ref.termsId)}`, ["terms"]],
    ["scope: a customer", () => `scope=${url("customers", ref.customerId)}`, ["granted", "terms"]],
    ["scope: an offering through its public view", () => `scope=${url("marketplace-public-offerings", ref.offeringId)}`, ["joined", "terms"]],
    ["scope: a resource through the consumer view", () => `scope=${url("marketplace-resources", ref.resourceId)}`, ["resource"]],
    ["scope: a bare uuid", () => `scope=${toHex(ref.u2)}`, ["granted"]],
    ["created_from with a fraction of a second", () => `created_from=${Date.UTC(2024, 0, 4) / 1000 - 0.5}`, ["resource", "ssh"]],
  ];
  for (const [name, query, expected] of cases) {
    it(name, async () => expect(await list(query())).toEqual(expected));
  }

  it("a malformed related_user_uuid → 400 naming it", async () => {
    const res = await t.http("GET", "/api/events/?related_user_uuid=nope", { token: t.world.tokens.staff });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(["related_user_uuid"]);
  });

  it("count/ reads the same filters", async () => {
    const res = await t.http("GET", "/api/events/count/?feature=users", { token: t.world.tokens.staff });
    expect(res.body).toEqual({ count: 2 });
  });

  it("GraphQL takes them under their argument names", async () => {
    const query = `query($filter: EventFilter) { events(filter: $filter, orderBy: CREATED_ASC) { nodes { message } } eventCount(filter: $filter) }`;
    const filter = { feature: ["users", "permissions"], relatedUserUuid: [toHex(ref.u1)], authMethod: null, scope: [toHex(ref.offeringId)] };
    const res = await t.gql(query, { filter }, t.world.tokens.staff);
    expect(res.errors).toBeUndefined();
    expect(res.data.events.nodes).toEqual([{ message: "joined happened" }]);
    expect(res.data.eventCount).toBe(1);
  });
});

describe("event responses as py-client reads them", () => {
  const problems = (path: string, body: unknown) => responseProblems(waldurOperation("GET", path)!, body);

  it("list, retrieve and count parse without a problem", async () => {
    const token = t.world.tokens.staff;
    const all = await t.http("GET", "/api/events/", { token });
    expect(all.body).toHaveLength(5);
    expect(problems("/api/events/", all.body)).toEqual([]);
    const one = await t.http("GET", `/api/events/${ids.terms}/`, { token });
    expect(one.body.event_type).toBe("terms_of_service_created");
    expect(problems("/api/events/:id/", one.body)).toEqual([]);
    expect(problems("/api/events/count/", (await t.http("GET", "/api/events/count/", { token })).body)).toEqual([]);
  });
});
