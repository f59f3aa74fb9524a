import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { toHex } from "../platform/ids.ts";

/** Waldur's `/api/marketplace-service-providers/` filters and ordering, over the world's provider and two more. */
let t: TestApp;
const ref = {} as Record<"zeta" | "acme" | "spZeta" | "spAcme", string>;
const BASE = "/api/marketplace-service-providers/";

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const zeta = await db.customer.create({ data: { name: "Zeta Computing", abbreviation: "ZC", created: new Date("2020-01-01T00:00:00Z") } });
  const acme = await db.customer.create({ data: { name: "Acme Labs", abbreviation: "AL" } });
  const spZeta = await db.serviceProvider.create({ data: { customerId: zeta.id, created: new Date("2020-01-01T00:00:00Z") } });
  const spAcme = await db.serviceProvider.create({ data: { customerId: acme.id } });
  Object.assign(ref, { zeta: toHex(zeta.id), acme: toHex(acme.id), spZeta: toHex(spZeta.id), spAcme: toHex(spAcme.id) });
});
afterAll(() => t.close());

const NAMES: Record<string, string> = { "Zeta Computing": "zeta", "Acme Labs": "acme", "Provider Org": "world" };

async function list(query: string) {
  const res = await t.http("GET", `${BASE}?${query}`, { token: t.world.tokens.unrelated });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  expect(res.headers.get("x-result-count")).toBe(String(res.body.length));
  return (res.body as Array<{ customer_name: string }>).map((sp) => NAMES[sp.customer_name]);
}

describe(`${BASE} filters`, () => {
  const CASES: Array<[string, () => string, string[]]> = [
    ["every provider, by customer name", () => "", ["acme", "world", "zeta"]],
    ["customer_uuid", () => `customer_uuid=${ref.zeta}`, ["zeta"]],
    ["customer (URL)", () => `customer=${t.baseUrl}/api/customers/${ref.acme}/`, ["acme"]],
    ["customer (bare uuid)", () => `customer=${ref.acme}`, ["acme"]],
    ["customer and customer_uuid narrow together", () => `customer=${ref.acme}&customer_uuid=${ref.zeta}`, []],
    ["customer_keyword: name", () => "customer_keyword=COMPUT", ["zeta"]],
    ["customer_keyword: abbreviation", () => "customer_keyword=al", ["acme"]],
    ["customer_keyword: either", () => "customer_keyword=org", ["world"]],
    ["customer_keyword: nothing", () => "customer_keyword=nobody", []],
    ["o=customer_name", () => "o=customer_name", ["acme", "world", "zeta"]],
    ["o=-customer_name", () => "o=-customer_name", ["zeta", "world", "acme"]],
  ];
  for (const [name, query, expected] of CASES) {
    it(name, async () => expect(await list(query())).toEqual(expected));
  }

  it("malformed values → 400 naming the parameter", async () => {
    const bad = async (query: string) => (await t.http("GET", `${BASE}?${query}`, { token: t.world.tokens.unrelated })).body;
    expect(await bad("customer_uuid=123")).toEqual({ customer_uuid: ["Enter a valid UUID."] });
    expect(await bad(`customer=${t.baseUrl}/api/projects/${ref.acme}/`)).toEqual({
      customer: ["Select a valid choice. That choice is not one of the available choices."],
    });
    expect(await bad("o=created")).toEqual({ o: ["Select a valid choice. created is not one of the available choices."] });
  });

  it("GraphQL serviceProviders(filter, orderBy)", async () => {
    const res = await t.gql(
      `{ serviceProviders(filter: { customerKeyword: "a" }, orderBy: [CUSTOMER_NAME_DESC]) { totalCount nodes { customer { name abbreviation } } } }`,
      {},
      t.world.tokens.unrelated,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.serviceProviders).toEqual({
      totalCount: 2,
      nodes: [
        { customer: { name: "Zeta Computing", abbreviation: "ZC" } },
        { customer: { name: "Acme Labs", abbreviation: "AL" } },
      ],
    });
  });
});

describe(`${BASE} response`, () => {
  it("counts the customer's Active and Paused offerings", async () => {
    const db = t.app.deps.db;
    const customerId = (await db.serviceProvider.findFirstOrThrow({ where: { customer: { name: "Acme Labs" } } })).customerId;
    for (const state of ["ACTIVE", "PAUSED", "DRAFT", "ARCHIVED", "ACTIVE"] as const) {
      await db.offering.create({ data: { customerId, name: `Acme ${state}`, type: "Marketplace.Basic", state } });
    }
    const res = await t.http("GET", `${BASE}${ref.spAcme}/`, { token: t.world.tokens.unrelated });
    expect(res.body).toMatchObject({
      customer_name: "Acme Labs",
      customer_abbreviation: "AL",
      customer_slug: "acme-labs",
      customer_native_name: "",
      offering_count: 3,
      organization_groups: [],
    });
  });
});
