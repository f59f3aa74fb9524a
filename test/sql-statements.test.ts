/**
 * SQL statements per request of the main REST list endpoints, counted at the driver. A page of 10 must cost what a
 * page of 1 costs (no N+1), and the exact figure is pinned so that an extra round trip per request shows up too.
 * Every listed row has related objects of its own (user, project, plan, reviewers, services, …), so a relation
 * loaded per row would make the 10-item page dearer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Persona } from "./support/world.ts";
import { startTestApp, type TestApp } from "./support/app.ts";
import { seedEveryList } from "./support/list-fixtures.ts";
import { makeResource } from "./support/order-fixtures.ts";
import { countSql, type SqlCount } from "./support/sql-counter.ts";
import { toHex } from "../src/platform/ids.ts";
import { globalId } from "./support/global-ids.ts";

/** Rows seeded per endpoint: more than the larger page, so both pages are full and the count is real. */
const ROWS = 12;
const LARGE_PAGE = 10;
/** Each count is of the request's own statements: a tally fold the app's timer runs meanwhile is not the request's. */
const OWN = { of: "run" } as const;

let t: TestApp;

interface Endpoint {
  path: () => string;
  viewer: Persona;
  /** Statements for one request (either page size); the token and the viewer's roles are cached by then (TOKEN_CACHE_MS). */
  statements: number;
}

// A count asked beside its page rides in the page's statement (src/platform/reads/sql/fused-reads.ts): a list is one
// statement unless its count must first look something up.
const ENDPOINTS: Record<string, Endpoint> = {
  // The count: the provider's offerings (one lookup), their tallies, and the viewer's own records beyond them. The
  // offerings' active terms come with the page; the users' consents to them take one more.
  "offering users": { path: () => "/api/marketplace-offering-users/", viewer: "providerOwner", statements: 5 },
  orders: { path: () => "/api/marketplace-orders/", viewer: "providerOwner", statements: 1 },
  "provider resources": { path: () => "/api/marketplace-provider-resources/", viewer: "providerOwner", statements: 1 },
  // The count, in the page's statement: the tallies of the audiences sharing the viewer's roles, and of their own events in other audiences.
  events: { path: () => "/api/events/", viewer: "providerOwner", statements: 1 },
  "component usages": { path: () => "/api/marketplace-component-usages/", viewer: "providerOwner", statements: 1 },
  "maintenance announcements": { path: () => "/api/maintenance-announcements/", viewer: "providerOwner", statements: 1 },
  "terms of service": { path: () => "/api/marketplace-offering-terms-of-service/", viewer: "providerOwner", statements: 2 },
  "site-agent identities": { path: () => "/api/marketplace-site-agent-identities/", viewer: "providerOwner", statements: 1 },
  keys: { path: () => "/api/keys/", viewer: "staff", statements: 1 },
  "service provider keys": {
    path: () => `/api/marketplace-service-providers/${t.world.serviceProvider.uuid}/keys/`,
    viewer: "providerOwner",
    statements: 3,
  },
};

beforeAll(async () => {
  // The token and the roles are looked up once for the whole run: a cache that expired between two counted requests
  // (a loaded machine) would add its lookups to one of them.
  t = await startTestApp({ tokenCacheMs: 3_600_000 });
  await seedEveryList(t, ROWS);
});
afterAll(() => t.close());

async function page(endpoint: Endpoint, pageSize: number) {
  const path = `${endpoint.path()}?page_size=${pageSize}`;
  return countSql(() => t.http("GET", path, { token: t.world.tokens[endpoint.viewer] }), OWN);
}

describe("SQL statements per list request do not grow with the page size", () => {
  it.each(Object.entries(ENDPOINTS))("%s", async (_name, endpoint) => {
    await page(endpoint, LARGE_PAGE); // warms whatever is read once per process
    const one = await page(endpoint, 1);
    const ten = await page(endpoint, LARGE_PAGE);
    expect(one.result.status, one.result.text).toBe(200);
    expect(one.result.body).toHaveLength(1);
    expect(ten.result.body).toHaveLength(LARGE_PAGE);
    expect({ one: one.statements, ten: ten.statements }, ten.texts.join("\n")).toEqual({ one: endpoint.statements, ten: endpoint.statements });
  });
});

describe("SQL statements per record read", () => {
  it("an offering user: one statement, its offering's active terms read with it; their consent one more", async () => {
    const read = async (uuid: string) => countSql(() => t.http("GET", `/api/marketplace-offering-users/${uuid}/`, { token: t.world.tokens.staff }), OWN);
    const db = t.app.deps.db;
    const bare = await db.offering.create({ data: { customerId: t.world.provider.id, name: "No terms", type: "Marketplace.Slurm", state: "ACTIVE" } });
    const plain = await db.offeringUser.create({ data: { offeringId: bare.id, userId: t.world.users.unrelated.id, state: "OK" } });
    const without = await read(toHex(plain.id));
    expect(without.result.body).toMatchObject({ offering_has_active_tos: false, has_consent: false, requires_reconsent: false });
    expect(without.statements, without.texts.join("\n")).toBe(1);

    // The seed's members of even rows consented to the world's offering's active terms (version 2) or an older version.
    const terms = await db.offeringTermsOfService.findFirstOrThrow({ where: { offeringId: t.world.offering.id, isActive: true } });
    const consent = await db.userOfferingConsent.findFirstOrThrow({ where: { offeringId: t.world.offering.id, version: terms.version } });
    const consented = await db.offeringUser.findFirstOrThrow({ where: { offeringId: consent.offeringId, userId: consent.userId }, select: { id: true } });
    const withTerms = await read(toHex(consented.id));
    expect(withTerms.result.body).toMatchObject({ offering_has_active_tos: true, has_consent: true, requires_reconsent: false });
    expect(withTerms.statements, withTerms.texts.join("\n")).toBe(2);
  });
});

describe("SQL statements per write", () => {
  it("an offering-user transition: 2 statements and no transaction (the record; compare-and-swap with its event, which commits alone: nothing else writes and REST's answer needs no reload)", async () => {
    const offeringUser = await t.world.offeringUser("CREATION_REQUESTED");
    await t.http("GET", "/api/users/me/", { token: t.world.tokens.providerOwner }); // the token, cached as by any earlier request
    const { result, statements, texts } = await countSql(
      () => t.http("POST", `/api/marketplace-offering-users/${offeringUser.uuid}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} }),
      OWN,
    );
    expect(result.status).toBe(200);
    expect(statements, texts.join("\n")).toBe(2);
    expect(texts[1]).toMatch(/^\s*WITH changed AS \(UPDATE offering_users/);
  });

  it("a username pushed back (finishing account creation): the swap and its event in one statement, then REST's reload", async () => {
    const offeringUser = await t.world.offeringUser("CREATING");
    const { result, texts } = await countSql(
      () => t.http("PATCH", `/api/marketplace-offering-users/${offeringUser.uuid}/`, { token: t.world.tokens.providerOwner, body: { username: "pushed-back" } }),
      OWN,
    );
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ username: "pushed-back", state: "OK" });
    const writes = texts.filter((text) => /^\s*(WITH changed AS \(UPDATE|UPDATE|INSERT|WITH event AS)/i.test(text));
    expect(writes, texts.join("\n")).toHaveLength(1);
    expect(writes[0]).toMatch(/^\s*WITH changed AS \(UPDATE offering_users SET .*username = .* AND username IS NOT DISTINCT FROM/s);
  });

  it("a usage report: the resource, its components, and one statement that upserts the usages and merges the resource's current usages, with no transaction", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const report = () =>
      t.http("POST", "/api/marketplace-component-usages/set_usage/", {
        token: t.world.tokens.providerOwner,
        body: { resource: resource.uuid, usages: [{ type: "cpu", amount: 1 }, { type: "ram", amount: 2 }] },
      });
    expect((await report()).status).toBe(201);
    const { result, statements, texts } = await countSql(report, OWN);
    expect(result.status).toBe(201);
    expect(statements, texts.join("\n")).toBe(3);
    expect(texts[2]).toMatch(/^\s*WITH upserted AS \(\s*INSERT INTO component_usages/);
  });

  it("a transition answered with a reload (a GraphQL selection) runs in a transaction: the same write, and the reload in it", async () => {
    const offeringUser = await t.world.offeringUser("CREATION_REQUESTED");
    const mutation = `mutation($id: ID!) { beginCreatingOfferingUser(input: { id: $id }) { __typename ... on OfferingUser { state offering { name } } } }`;
    await t.gql("{ me { username } }", {}, t.world.tokens.providerOwner);
    const { result, work, texts } = await countSql(() => t.gql(mutation, { id: globalId("OfferingUser", offeringUser.uuid) }, t.world.tokens.providerOwner), OWN);
    expect(JSON.stringify(result), texts.join("\n")).toMatch(/"state":"CREATING"/);
    expect(work, texts.join("\n")).toBeLessThanOrEqual(4);
    expect(texts.some((text) => /WITH changed AS \(UPDATE offering_users/.test(text))).toBe(true);
  });
});

describe("SQL statements per GraphQL page do not grow with the page size (nodes reached through an interface)", () => {
  const countGql = (query: string, persona: Persona) => countSql(() => t.gql(query, {}, t.world.tokens[persona]), OWN);

  it("events with their subject (each event's own maintenance announcement)", async () => {
    const page = (first: number) => `{ events(first: ${first}, filter: { eventType: ["bench_event"] }) { nodes { subject { id ... on MaintenanceAnnouncement { name } } } } }`;
    await countGql(page(LARGE_PAGE), "providerOwner");
    const one = await countGql(page(1), "providerOwner");
    const ten = await countGql(page(LARGE_PAGE), "providerOwner");
    const subjects = ten.result.data?.events.nodes.map((n: { subject: { name?: string } | null }) => n.subject?.name);
    expect(subjects).toHaveLength(LARGE_PAGE);
    expect(subjects.every((name: string | undefined) => name?.startsWith("Maintenance "))).toBe(true);
    expect({ one: one.statements, ten: ten.statements }, ten.texts.join("\n")).toEqual({ one: one.statements, ten: one.statements });
  });

  it("the frontend's page of offering users with user and offering: the page with its relations joined, and its total (staff: the tallies, in the page's statement; a provider: its offerings, their tallies and its own records beyond them)", async () => {
    const page = (first: number) => `{ offeringUsers(first: ${first}) { totalCount nodes { uuid state created user { username email fullName } offering { name } } } }`;
    for (const [persona, statements] of [["staff", 1], ["providerOwner", 4]] as const) {
      await countGql(page(LARGE_PAGE), persona);
      const one = await countGql(page(1), persona);
      const ten = await countGql(page(LARGE_PAGE), persona);
      expect(ten.result.data?.offeringUsers.nodes).toHaveLength(LARGE_PAGE);
      expect(ten.result.data?.offeringUsers.nodes.every((n: { user: { username: string }; offering: { name: string } }) => n.user.username && n.offering.name)).toBe(true);
      expect({ one: one.statements, ten: ten.statements }, ten.texts.join("\n")).toEqual({ one: statements, ten: statements });
    }
  });

  it("a page reads its rows' keys (for their cursors) in its own statement, and only when a cursor is selected, through fragments too", async () => {
    const keysRead = (count: SqlCount<unknown>) => count.texts.some((text) => text.includes('"$key0"'));
    const pages = {
      nodes: "{ offeringUsers(first: 3) { totalCount nodes { uuid } } }",
      edgeCursors: "{ offeringUsers(first: 3) { totalCount edges { cursor node { uuid } } } }",
      pageEnd: "{ offeringUsers(first: 3) { ...End } } fragment End on OfferingUserConnection { totalCount nodes { uuid } pageInfo { ... on PageInfo { endCursor } } }",
    };
    const counts: Record<string, SqlCount<{ data?: any }>> = {};
    for (const [name, query] of Object.entries(pages)) counts[name] = await countGql(query, "staff");
    expect(Object.fromEntries(Object.entries(counts).map(([name, count]) => [name, [keysRead(count), count.statements]]))).toEqual({
      nodes: [false, 1],
      edgeCursors: [true, 1],
      pageEnd: [true, 1],
    });
    const endCursor = counts.pageEnd.result.data?.offeringUsers.pageInfo.endCursor;
    const next = await t.gql(`{ offeringUsers(first: 1, after: "${endCursor}") { nodes { uuid } } }`, {}, t.world.tokens.staff);
    const whole = await t.gql("{ offeringUsers(first: 4) { nodes { uuid } } }", {}, t.world.tokens.staff);
    expect(next.data?.offeringUsers.nodes[0].uuid).toBe(whole.data?.offeringUsers.nodes[3].uuid);
  });

  it("the viewer's roles with their scopes", async () => {
    const query = `{ me { roles { scopeType scope { id } } } }`;
    const grantProjectAdmin = async (name: string) => {
      const project = await t.app.deps.db.project.create({ data: { customerId: t.world.provider.id, name } });
      await t.app.deps.db.roleGrant.create({ data: { userId: t.world.users.providerOwner.id, role: "PROJECT.ADMIN", scopeType: "PROJECT", scopeId: project.id } });
    };
    const scopedRoles = (count: SqlCount<{ data?: { me: { roles: Array<{ scope: { id: string } | null }> } } }>) =>
      count.result.data?.me.roles.filter((role) => role.scope).length;
    await grantProjectAdmin("Roles 1");
    const one = await countGql(query, "providerOwner");
    for (const name of ["Roles 2", "Roles 3", "Roles 4"]) await grantProjectAdmin(name);
    const four = await countGql(query, "providerOwner");
    expect(scopedRoles(four)).toBe(scopedRoles(one)! + 3);
    expect(four.statements, four.texts.join("\n")).toBe(one.statements);
  });
});
