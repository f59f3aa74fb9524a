import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test/support/app.ts";
import { ROUTES } from "./routes/index.ts";

/** Every route, fed garbage: whatever the input, the answer is a client error or success, never 5xx. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ maxBodyBytes: 4096 });
});
afterAll(() => t.close());

const GARBAGE_RAW_BODIES = ["{", "[]", '"text"', "null", "12", "true", '{"a":', "\u0000", "{}".repeat(3000)];

const WEIRD_VALUES: unknown[] = [null, 0, -1, 1.5, true, "", " ", "x".repeat(300), [], [1, "a"], {}, { nested: { deep: [] } }, "2030-13-45T99:99:99Z", "not-a-uuid"];

/** One body per weird value, setting every field any route reads to that value. */
const FIELDS = [
  "username", "password", "email", "first_name", "last_name", "is_staff", "is_support", "name", "abbreviation", "description",
  "customer", "type", "plugin_options", "components", "plans", "user", "role", "expiration_time", "offering", "offering_uuid",
  "user_uuid", "comment", "comment_url", "service_provider_comment", "service_provider_comment_url",
];
const weirdBodies = () => WEIRD_VALUES.map((value) => Object.fromEntries(FIELDS.map((field) => [field, value])));

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
  "field=nope", "field=", "name=%27%3B--", "query=%5C%5C", "username=\u0000", "email=a%00b",
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

function expectNoServerError(status: number, what: string) {
  expect(status, what).toBeGreaterThanOrEqual(200);
  expect(status, what).toBeLessThan(500);
}

describe("every route answers garbage without a 5xx", () => {
  for (const route of ROUTES) {
    it(`${route.method} ${route.path}`, async () => {
      const tokens = [t.world.tokens.staff, t.world.tokens.providerOwner, t.world.tokens.projectMember, undefined];
      for (const path of await concretePaths(route.path)) {
        for (const token of tokens) {
          for (const query of GARBAGE_QUERIES) {
            const res = await t.http(route.method, `${path}?${query}`, { token });
            expectNoServerError(res.status, `${route.method} ${path}?${query}`);
          }
          if (route.method === "GET") continue;
          for (const raw of GARBAGE_RAW_BODIES) {
            const res = await t.http(route.method, path, { token, raw, headers: { "content-type": "application/json" } });
            expectNoServerError(res.status, `${route.method} ${path} raw ${raw.slice(0, 20)}`);
          }
          for (const body of [...weirdBodies(), ...nestedBodies()]) {
            const res = await t.http(route.method, path, { token, body });
            expectNoServerError(res.status, `${route.method} ${path} ${JSON.stringify(body).slice(0, 120)}`);
          }
        }
      }
    });
  }
});
