import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { newTokenKey, tokenDigest } from "../auth/secrets.ts";
import { toHex } from "../platform/ids.ts";

/**
 * Waldur's `/api/customers/` filters and orderings over three customers made to be split by them (named `cf …`),
 * and a viewer (`cf.viewer`) who owns A, manages B and is a member of a project of C.
 */
let t: TestApp;
let viewer: string;
const ref = {} as Record<"A" | "B" | "C" | "spA" | "slugA" | "viewer" | "memberOfB", string>;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const make = (name: string, abbreviation: string, created: string) =>
    db.customer.create({ data: { name, abbreviation, created: new Date(created) } });
  const A = await make("cf Alpha Research", "ALR", "2020-01-01T00:00:00Z");
  const B = await make("cf Beta Labs", "BL", "2020-02-01T00:00:00Z");
  const C = await make("cf Gamma alpha", "", "2020-03-01T00:00:00Z");
  const sp = await db.serviceProvider.create({ data: { customerId: A.id } });
  const project = (customerId: string) => db.project.create({ data: { customerId, name: "cf project" } });
  const [pA, pB, pC] = [await project(A.id), await project(B.id), await project(C.id)];
  await db.resource.create({ data: { projectId: pA.id, offeringId: t.world.offering.id, state: "OK" } });
  await db.resource.create({ data: { projectId: pB.id, offeringId: t.world.offering.id, state: "TERMINATED" } });

  const person = await db.user.create({ data: { username: "cf.viewer" } });
  const member = await db.user.create({ data: { username: "cf.member" } });
  const grant = (userId: string, role: string, scopeType: "CUSTOMER" | "PROJECT", scopeId: string) =>
    db.roleGrant.create({ data: { userId, role, scopeType, scopeId } });
  await grant(person.id, "CUSTOMER.OWNER", "CUSTOMER", A.id);
  await grant(person.id, "CUSTOMER.MANAGER", "CUSTOMER", B.id);
  await grant(person.id, "PROJECT.MEMBER", "PROJECT", pC.id);
  await grant(member.id, "PROJECT.ADMIN", "PROJECT", pB.id);
  viewer = newTokenKey();
  await db.authToken.create({ data: { keyDigest: tokenDigest(viewer), userId: person.id } });

  const slugA = (await db.customer.findUniqueOrThrow({ where: { id: A.id } })).slug;
  Object.assign(ref, {
    A: toHex(A.id), B: toHex(B.id), C: toHex(C.id), spA: toHex(sp.id), slugA, viewer: toHex(person.id), memberOfB: toHex(member.id),
  });
});
afterAll(() => t.close());

const LETTER: Record<string, string> = { "cf Alpha Research": "A", "cf Beta Labs": "B", "cf Gamma alpha": "C" };

/** The names a list returns for `query` (as `token`), in response order. */
async function all(query: string, token = t.world.tokens.staff) {
  const res = await t.http("GET", `/api/customers/?page_size=300&${query}`, { token });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return (res.body as Array<{ name: string }>).map((customer) => LETTER[customer.name] ?? customer.name);
}
/** The dataset's customers among them, as letters. */
const ours = async (query: string, token?: string) => (await all(query, token)).filter((name) => name.length === 1);

describe("/api/customers/ filters", () => {
  const CASES: Array<[string, () => string, string[]]> = [
    ["no filter", () => "", ["A", "B", "C"]],
    ["name: substring, case-insensitive", () => "name=ALPHA", ["A", "C"]],
    ["name_exact", () => "name_exact=cf%20Beta%20Labs", ["B"]],
    ["name_exact is case-sensitive", () => "name_exact=cf%20beta%20labs", []],
    ["abbreviation: substring", () => "abbreviation=l", ["A", "B"]],
    ["slug", () => `slug=${ref.slugA}`, ["A"]],
    ["query: name", () => "query=labs", ["B"]],
    ["query: abbreviation", () => "query=alr", ["A"]],
    ["query: uuid", () => `query=${ref.C}`, ["C"]],
    ["archived=false", () => "archived=false", ["A", "B", "C"]],
    ["is_call_managing_organization=false", () => "is_call_managing_organization=false", ["A", "B", "C"]],
    ["is_service_provider=true", () => "is_service_provider=true", ["A"]],
    ["is_service_provider=false", () => "is_service_provider=false", ["B", "C"]],
    ["service_provider_uuid", () => `service_provider_uuid=${ref.spA}`, ["A"]],
    ["has_resources=true: a resource not terminated", () => "has_resources=true", ["A"]],
    ["has_resources=false", () => "has_resources=false", ["B", "C"]],
    ["accounting_is_running=true", () => "accounting_is_running=true", ["A", "B", "C"]],
    ["user_uuid: customer, project roles", () => `user_uuid=${ref.viewer}`, ["A", "B", "C"]],
    ["user_uuid: a project role only", () => `user_uuid=${ref.memberOfB}`, ["B"]],
    ["user_uuid: staff see everything", () => `user_uuid=${t.world.users.staff.uuid}`, ["A", "B", "C"]],
    ["filters combine", () => "name=alpha&is_service_provider=false", ["C"]],
  ];
  for (const [name, query, expected] of CASES) {
    it(name, async () => expect(await ours(query())).toEqual(expected));
  }

  const NOTHING = [
    "native_name=x",
    "contact_details=x",
    "agreement_number=x",
    "registration_code=x",
    "backend_id=x",
    "organization_group_name=x",
    `organization_group_uuid=${"1".repeat(32)}`,
    "archived=true",
    "is_call_managing_organization=true",
    "accounting_is_running=false",
    `user_uuid=${"0".repeat(32)}`,
  ];
  for (const query of NOTHING) it(`${query} matches nothing`, async () => expect(await all(query)).toEqual([]));

  it("user_uuid: the customers the world's people see", async () => {
    expect(await all(`user_uuid=${t.world.users.offeringManager.uuid}`)).toEqual(["Provider Org"]);
    expect(await all(`service_provider_uuid=${t.world.serviceProvider.uuid}`)).toEqual(["Provider Org"]);
  });

  describe("the viewer's own roles", () => {
    const VIEWER: Array<[string, string[]]> = [
      ["", ["A", "B", "C"]],
      ["owned_by_current_user=true", ["A"]],
      ["owned_by_current_user=false", ["A", "B", "C"]],
      ["current_user_has_role=CUSTOMER.MANAGER", ["B"]],
      ["current_user_has_role=CUSTOMER.OWNER,CUSTOMER.MANAGER", ["A", "B"]],
      ["current_user_has_role=CUSTOMER.OWNER&current_user_has_role=CUSTOMER.MANAGER", ["A", "B"]],
      ["current_user_has_role=PROJECT.MEMBER", []],
      ["current_user_has_role=nonsense", []],
      ["current_user_has_project_create_permission=true", ["A"]],
      ["current_user_has_project_create_permission=false", ["A", "B", "C"]],
    ];
    for (const [query, expected] of VIEWER) {
      it(query || "(visible to the viewer)", async () => expect(await all(query, viewer)).toEqual(expected));
    }

    it("staff own nothing but may create projects everywhere", async () => {
      expect(await all("owned_by_current_user=true")).toEqual([]);
      expect(await ours("current_user_has_project_create_permission=true")).toEqual(["A", "B", "C"]);
      expect(await all("current_user_has_project_create_permission=true", t.world.tokens.providerOwner)).toEqual(["Provider Org"]);
    });
  });

  it("malformed values → 400 naming the parameter", async () => {
    const bad = async (query: string) => (await t.http("GET", `/api/customers/?${query}`, { token: t.world.tokens.staff })).body;
    expect(await bad("user_uuid=nope")).toEqual({ user_uuid: ["Enter a valid UUID."] });
    expect(await bad("service_provider_uuid=1")).toEqual({ service_provider_uuid: ["Enter a valid UUID."] });
    expect(await bad("has_resources=perhaps")).toEqual({ has_resources: ["Enter a valid boolean."] });
  });
});

describe("/api/customers/ orderings", () => {
  const CASES: Array<[string, string[]]> = [
    ["", ["A", "B", "C"]],
    ["-name", ["C", "B", "A"]],
    ["created", ["A", "B", "C"]],
    ["-created", ["C", "B", "A"]],
    ["-accounting_start_date", ["C", "B", "A"]],
    ["abbreviation", ["C", "A", "B"]],
    ["-abbreviation", ["B", "A", "C"]],
    ["-native_name", ["A", "B", "C"]],
    ["contact_details,-created", ["C", "B", "A"]],
    ["agreement_number", ["A", "B", "C"]],
    ["-registration_code", ["A", "B", "C"]],
  ];
  for (const [o, expected] of CASES) {
    it(`o=${o}`, async () => expect(await ours(o ? `o=${o}` : "")).toEqual(expected));
  }
});

describe("GraphQL customers(filter, orderBy)", () => {
  it("takes the contract's arguments, with the viewer's roles", async () => {
    const res = await t.gql(
      `{ customers(filter: { currentUserHasRole: ["CUSTOMER.OWNER,CUSTOMER.MANAGER"], name: "cf" }, orderBy: [NAME_DESC]) {
        totalCount nodes { name isServiceProvider projectsCount usersCount } } }`,
      {},
      viewer,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.customers).toEqual({
      totalCount: 2,
      nodes: [
        { name: "cf Beta Labs", isServiceProvider: false, projectsCount: 1, usersCount: 2 },
        { name: "cf Alpha Research", isServiceProvider: true, projectsCount: 1, usersCount: 1 },
      ],
    });
  });
});
