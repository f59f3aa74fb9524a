import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test/support/app.ts";
import { restParameters } from "./collection-query.ts";
import type { JsonSchema } from "./openapi/json-schema.ts";
import type { RouteSpec } from "./route.ts";
import { REST_API } from "../src/modules.ts";

/** Every route, fed garbage: whatever the input, the answer is a client error or success, never 5xx. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ maxBodyBytes: 4096 });
});
afterAll(() => t.close());

const GARBAGE_RAW_BODIES = ["{", "[]", '"text"', "null", "12", "true", '{"a":', "\u0000", "{}".repeat(3000)];

const WEIRD_VALUES: unknown[] = [null, 0, -1, 1.5, true, "", " ", "x".repeat(300), [], [1, "a"], {}, { nested: { deep: [] } }, "2030-13-45T99:99:99Z", "not-a-uuid"];

/** One body per weird value, setting every field the route's body contract declares (and each nested item's) to it. */
function weirdBodies(route: RouteSpec) {
  const fields = Object.entries(route.body?.fields ?? {});
  const nested = (schema: JsonSchema, value: unknown) => {
    const properties = (schema.items as JsonSchema | undefined)?.properties as Record<string, unknown> | undefined;
    return properties ? [Object.fromEntries(Object.keys(properties).map((name) => [name, value]))] : value;
  };
  return WEIRD_VALUES.flatMap((value) => [
    Object.fromEntries(fields.map(([name]) => [name, value])),
    Object.fromEntries(fields.map(([name, field]) => [name, nested(field.schema, value)])),
  ]);
}

const WEIRD_QUERY_VALUES = ["", " ", "x".repeat(300), "not-a-uuid", "constructor", "2030-13-45T99:99:99Z", "-1", "1e400", "a,,b", "%"];

/** One query string per weird value, setting every parameter the route's contract (or declared query) reads to it. */
function weirdQueries(route: RouteSpec) {
  const declared = route.contract ?? route.query;
  const names = declared ? restParameters(declared).map((parameter) => parameter.name) : [];
  if (!names.length) return [];
  return WEIRD_QUERY_VALUES.map((value) => names.map((name) => `${name}=${encodeURIComponent(value)}`).join("&"));
}

const nestedBodies = () => [
  { customer: t.world.provider.uuid, name: "o", type: "t", components: [{ type: "cpu", billing_type: "usage", limit_amount: "x" }] },
  { customer: t.world.provider.uuid, name: "o", type: "t", components: [null, 1, "s", {}] },
  { customer: t.world.provider.uuid, name: "o", type: "t", components: [{ type: "a b", name: 1, billing_type: "usage" }] },
  { customer: t.world.provider.uuid, name: "o", type: "t", components: [{ type: "cpu", billing_type: "usage", limit_amount: 1e300 }] },
  { customer: t.world.provider.uuid, name: "o", type: "t", plans: [{ name: "p", unit_price: "abc" }, { name: "q", unit_price: {} }] },
  { customer: t.world.provider.uuid, name: "o", type: "t", plans: [{ name: "p", unit: 5 }] },
  { user: t.world.users.unrelated.uuid, role: "CUSTOMER.OWNER", expiration_time: "275760-09-13T00:00:00Z" },
  { user: t.world.users.unrelated.uuid, role: "CUSTOMER.OWNER", expiration_time: "1970-01-01T00:00:00Z" },
  { offering_uuid: t.world.offering.uuid, user_uuid: t.world.users.unrelated.uuid, username: "x".repeat(10_000).slice(0, 3000) },
  { comment: "<script>".repeat(300), comment_url: "javascript:alert(1)" },
  { username: "\u0000\ud800" },
];

const GARBAGE_QUERIES = [
  "page=abc", "page=0", "page=-1", "page=99999999999999999999", "page=1.5", "page_size=-5", "page_size=abc", "page_size=100000",
  "state=nope", "state=", "type=%00", "o=bogus", "o=-", "o=,,,", "customer_uuid=zz", "customer=zz", "offering_uuid=a,b,,",
  "provider_uuid=1", "user_uuid=%", "created=notadate", "created=99999-01-01", "modified_before=2020-02-31", "is_restricted=maybe",
  "created_from=abc", "created_from=1e400", "created_to=-1e308", "scope=http://x/api/nowhere/1/", "scope=%%%", "event_type=a,,b",
  "billing_period=2020-13", "billing_period=abc", "resource_uuid=x", "project_uuid=x", "date_after=abc", "date_before=9999-99-99",
  "field=nope", "field=", "field=constructor", "name=%27%3B--", "query=%5C%5C", "username=\u0000", "email=a%00b",
];

/** Real objects for each collection, so garbage reaches deeper than the 404 of an unknown uuid. */
function realUuids(path: string): string[] {
  const w = t.world;
  const byPrefix: Array<[string, string[]]> = [
    ["/api/users/", [w.users.unrelated.uuid]],
    ["/api/customers/", [w.provider.uuid, w.consumer.id]],
    ["/api/projects/", [w.project.uuid]],
    ["/api/marketplace-service-providers/", [w.serviceProvider.uuid]],
    ["/api/marketplace-provider-offerings/", [w.offering.uuid]],
    ["/api/events/", ["1", "-1", "1.5", "99999999999999999999999"]],
  ];
  return byPrefix.find(([prefix]) => path.startsWith(prefix))?.[1] ?? [];
}

async function concretePaths(path: string): Promise<string[]> {
  if (!/:\w+/.test(path)) return [path];
  const ou = path.startsWith("/api/marketplace-offering-users/") ? [(await t.world.offeringUser("CREATING")).uuid] : [];
  return [randomUUID(), "garbage", ...realUuids(path), ...ou].map((value) => path.replace(/:\w+/, value));
}

/** Garbage is sent as staff, who passes every permission check and so reaches the deepest code; others probe the early exits. */
describe("every route answers garbage without a 5xx", () => {
  for (const route of REST_API.routes) {
    it(`${route.method} ${route.path}`, async () => {
      const send = async (path: string, options: { token?: string; body?: unknown; raw?: string }) => {
        const headers = options.raw === undefined ? undefined : { "content-type": "application/json" };
        const res = await t.http(route.method, path, { ...options, headers });
        const what = `${route.method} ${path} ${options.raw ?? JSON.stringify(options.body) ?? ""}`.slice(0, 160);
        expect(res.status, what).toBeGreaterThanOrEqual(200);
        expect(res.status, what).toBeLessThan(500);
      };
      for (const path of await concretePaths(route.path)) {
        for (const token of [undefined, t.world.tokens.projectMember, t.world.tokens.providerOwner]) {
          await send(path, { token, body: route.method === "GET" ? undefined : {} });
        }
        if (path.includes("/garbage/")) continue;
        const token = t.world.tokens.staff;
        const queries = route.method === "GET" ? [...GARBAGE_QUERIES, ...weirdQueries(route)] : GARBAGE_QUERIES.slice(0, 3);
        await Promise.all(queries.map((query) => send(`${path}?${query}`, { token })));
        if (route.method === "GET") continue;
        await Promise.all(GARBAGE_RAW_BODIES.map((raw) => send(path, { token, raw })));
        await Promise.all([...weirdBodies(route), ...nestedBodies()].map((body) => send(path, { token, body })));
      }
    });
  }
});
