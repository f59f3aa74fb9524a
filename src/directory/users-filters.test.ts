import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { toHex } from "../platform/ids.ts";

/** Waldur's `/api/users/` filters and orderings, over five users made to be split by them (all named `uf…`). */
let t: TestApp;
const ref = {} as { custA: string; custB: string; projB: string };

const PAST = new Date("2019-01-01T00:00:00Z");
const FUTURE = new Date("2099-01-01T00:00:00Z");

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const custA = await db.customer.create({ data: { name: "UF Alpha" } });
  const custB = await db.customer.create({ data: { name: "UF Beta" } });
  const projA = await db.project.create({ data: { customerId: custA.id, name: "UF A1" } });
  const projB = await db.project.create({ data: { customerId: custB.id, name: "UF B1" } });
  Object.assign(ref, { custA: toHex(custA.id), custB: toHex(custB.id), projB: toHex(projB.id) });
  const users = [
    { username: "uf1", firstName: "Ann", lastName: "Lee", created: "2020-01-01", modified: "2020-06-01" },
    { username: "uf2", firstName: "Mary Ann", lastName: "Smith Jones", created: "2020-02-01", modified: "2021-01-01" },
    { username: "uf3", firstName: "Bob", lastName: "Annson", created: "2020-03-01", modified: "2022-01-01", isActive: false },
    { username: "uf4", firstName: "Zed", lastName: "", created: "2020-04-01", modified: "2020-04-01", isStaff: true, passwordHash: "x" },
    { username: "uf5", firstName: "", lastName: "Quinn", created: "2020-05-01", modified: "2020-05-01", isSupport: true },
  ];
  const ids: Record<string, string> = {};
  for (const { created, modified, ...user } of users) {
    const row = await db.user.create({
      data: { ...user, email: `${user.username}@uf.example`, created: new Date(created), modified: new Date(modified) },
    });
    ids[user.username] = row.id;
  }
  const grant = (user: string, role: string, scopeType: "CUSTOMER" | "PROJECT", scopeId: string, extra = {}) =>
    db.roleGrant.create({ data: { userId: ids[user], role, scopeType, scopeId, ...extra } });
  await grant("uf1", "CUSTOMER.OWNER", "CUSTOMER", custA.id, { expirationTime: FUTURE });
  await grant("uf2", "PROJECT.ADMIN", "PROJECT", projA.id);
  await grant("uf3", "PROJECT.MEMBER", "PROJECT", projB.id);
  await grant("uf3", "CUSTOMER.OWNER", "CUSTOMER", custB.id, { expirationTime: PAST });
  await grant("uf4", "CUSTOMER.MANAGER", "CUSTOMER", custB.id);
  await grant("uf5", "PROJECT.ADMIN", "PROJECT", projB.id, { isActive: false });
});
afterAll(() => t.close());

/** Every username a staff list returns for `query`, in response order. */
async function all(query: string) {
  const res = await t.http("GET", `/api/users/?page_size=300&${query}`, { token: t.world.tokens.staff });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return (res.body as Array<{ username: string }>).map((user) => user.username);
}
/** The dataset's users among them. */
const ours = async (query: string) => (await all(query)).filter((name) => name.startsWith("uf"));

describe("/api/users/ filters", () => {
  const CASES: Array<[string, () => string, string[]]> = [
    ["no filter", () => "", ["uf1", "uf2", "uf3", "uf4", "uf5"]],
    ["username is exact", () => "username=uf1", ["uf1"]],
    ["username is case-sensitive", () => "username=UF1", []],
    ["username_list", () => "username_list=uf1,uf3", ["uf1", "uf3"]],
    ["username_list with spaces", () => "username_list=uf1,%20uf5", ["uf1", "uf5"]],
    ["email: exact, case-insensitive", () => "email=UF3@UF.Example", ["uf3"]],
    ["full_name: within one name", () => "full_name=ann", ["uf1", "uf2", "uf3"]],
    ["full_name: across first and last", () => "full_name=ann%20smith", ["uf2"]],
    ["full_name: across names holding spaces", () => "full_name=y%20ann%20s", ["uf2"]],
    ["full_name: first and last", () => "full_name=Ann%20Lee", ["uf1"]],
    ["full_name: no stray space for an empty name", () => "full_name=zed%20", []],
    ["query: names, username, email", () => "query=ann", ["uf1", "uf2", "uf3"]],
    ["user_keyword: email", () => "user_keyword=uf.example", ["uf1", "uf2", "uf3", "uf4", "uf5"]],
    ["user_keyword: full name", () => "user_keyword=lee", ["uf1"]],
    ["is_active=false", () => "is_active=false", ["uf3"]],
    ["is_staff=true", () => "is_staff=true", ["uf4"]],
    ["is_support=true", () => "is_support=true", ["uf5"]],
    ["is_support=false", () => "is_support=false", ["uf1", "uf2", "uf3", "uf4"]],
    ["date_joined: on or after", () => "date_joined=2020-03-01", ["uf3", "uf4", "uf5"]],
    ["modified: on or after", () => "modified=2020-12-01", ["uf2", "uf3"]],
    ["registration_method: everyone's", () => "registration_method=default", ["uf1", "uf2", "uf3", "uf4", "uf5"]],
    ["customer_uuid: customer and project roles in force", () => `customer_uuid=${ref.custA}`, ["uf1", "uf2"]],
    ["customer_uuid: no inactive grant", () => `customer_uuid=${ref.custB}`, ["uf3", "uf4"]],
    ["project_uuid", () => `project_uuid=${ref.projB}`, ["uf3"]],
    ["organization_roles", () => "organization_roles=CUSTOMER.OWNER", ["uf1"]],
    ["organization_roles, several", () => "organization_roles=CUSTOMER.OWNER,CUSTOMER.MANAGER", ["uf1", "uf4"]],
    ["project_roles", () => "project_roles=PROJECT.ADMIN", ["uf2"]],
    ["filters combine", () => `customer_uuid=${ref.custB}&is_active=true`, ["uf4"]],
  ];
  for (const [name, query, expected] of CASES) {
    it(name, async () => expect(await ours(query())).toEqual(expected));
  }

  it("role filters count the world's role holders too, and no expired grant", async () => {
    expect(await all("organization_roles=CUSTOMER.OWNER")).toEqual(["providerOwner", "uf1"]);
    expect(await all("project_roles=PROJECT.ADMIN")).toEqual(["projectAdmin", "uf2"]);
  });

  const NOBODY = [
    "agreement_date=2000-01-01",
    "civil_number=123",
    "description=x",
    "job_title=x",
    "native_name=x",
    "organization=x",
    "phone_number=x",
    "registration_method=saml2",
    "username_list=nobody",
    `customer_uuid=${"0".repeat(32)}`,
  ];
  for (const query of NOBODY) it(`${query} matches nobody`, async () => expect(await all(query)).toEqual([]));

  it("an empty value narrows nothing", async () => {
    expect(await ours("civil_number=&job_title=&full_name=")).toEqual(["uf1", "uf2", "uf3", "uf4", "uf5"]);
  });

  it("malformed values → 400 naming the parameter", async () => {
    const bad = async (query: string) => (await t.http("GET", `/api/users/?${query}`, { token: t.world.tokens.staff })).body;
    expect(await bad("customer_uuid=nope")).toEqual({ customer_uuid: ["Enter a valid UUID."] });
    expect(await bad("project_uuid=1")).toEqual({ project_uuid: ["Enter a valid UUID."] });
    expect(await bad("is_staff=maybe")).toEqual({ is_staff: ["Enter a valid boolean."] });
    expect(await bad("date_joined=yesterday")).toEqual({ date_joined: ["Enter a valid date/time."] });
  });
});

describe("/api/users/ orderings", () => {
  const CASES: Array<[string, string[]]> = [
    ["", ["uf1", "uf2", "uf3", "uf4", "uf5"]],
    ["username", ["uf1", "uf2", "uf3", "uf4", "uf5"]],
    ["-username", ["uf5", "uf4", "uf3", "uf2", "uf1"]],
    ["full_name", ["uf5", "uf1", "uf3", "uf2", "uf4"]],
    ["-full_name", ["uf4", "uf2", "uf3", "uf1", "uf5"]],
    ["-email", ["uf5", "uf4", "uf3", "uf2", "uf1"]],
    ["is_active", ["uf3", "uf1", "uf2", "uf4", "uf5"]],
    ["-is_active", ["uf1", "uf2", "uf4", "uf5", "uf3"]],
    ["-is_staff", ["uf4", "uf1", "uf2", "uf3", "uf5"]],
    ["-is_support,-username", ["uf5", "uf4", "uf3", "uf2", "uf1"]],
    ["-native_name", ["uf1", "uf2", "uf3", "uf4", "uf5"]],
    ["job_title,-username", ["uf5", "uf4", "uf3", "uf2", "uf1"]],
  ];
  for (const [o, expected] of CASES) {
    it(`o=${o}`, async () => expect(await ours(o ? `o=${o}` : "")).toEqual(expected));
  }

  it("an unknown key → 400", async () => {
    const res = await t.http("GET", "/api/users/?o=civil_number", { token: t.world.tokens.staff });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ o: ["Select a valid choice. civil_number is not one of the available choices."] });
  });
});

describe("GraphQL users(filter, orderBy)", () => {
  it("takes the contract's arguments", async () => {
    const res = await t.gql(
      `{ users(filter: { usernameList: "uf1,uf3,uf4", isActive: true, dateJoinedAfter: "2020-01-02T00:00:00Z" }, orderBy: [USERNAME_DESC]) {
        totalCount nodes { username registrationMethod nativeName civilNumber hasUsablePassword } } }`,
      {},
      t.world.tokens.staff,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.users).toEqual({
      totalCount: 1,
      nodes: [{ username: "uf4", registrationMethod: "default", nativeName: "", civilNumber: null, hasUsablePassword: true }],
    });
  });

  it("a malformed uuid is named by its GraphQL argument", async () => {
    const res = await t.gql(`{ users(filter: { customerUuid: ["nope"] }) { totalCount } }`, {}, t.world.tokens.staff);
    expect(res.errors?.[0].extensions).toMatchObject({ code: "VALIDATION", fields: { customerUuid: ["“nope” is not a valid UUID."] } });
  });
});
