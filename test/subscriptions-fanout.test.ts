import { expect, it } from "vitest";
import { useSubscriptionApp } from "./support/subscription-app.ts";
import { noSubscriptionsOpen } from "./support/metrics-scrape.ts";
import { countSql } from "./support/sql-counter.ts";
import { type Feed, primeFeed, sleep } from "./support/ws.ts";
import { newTokenKey, tokenDigest } from "../src/auth/secrets.ts";
import { toHex } from "../src/platform/ids.ts";

/**
 * One user's many subscriptions share one visibility decision per published change, and those of one document and
 * variables share one execution of its selection.
 */

const CHANGED = `subscription { offeringUserChanged { offeringUserUuid state } }`;
const CHANGED_WITH_RECORD = `subscription { offeringUserChanged { offeringUserUuid state offeringUser { uuid state user { username } } event { eventType } } }`;
type Change = { offeringUserChanged: { offeringUserUuid: string; state: string } };

/** Cached tokens and roles outlive a slow run (opening twenty primed feeds can take seconds): no count pays a re-read. */
const { t, clients } = useSubscriptionApp({ tokenCacheMs: 60_000 });

/** Closes every feed and waits until the server has ended their subscriptions: one still open would be counted too. */
async function closeFeeds() {
  await clients.closeAll();
  await noSubscriptionsOpen(t);
}

let probes = 0;
const touch = (uuid: string) =>
  t.http("PATCH", `/api/marketplace-offering-users/${uuid}/update_comments/`, { token: t.world.tokens.staff, body: { service_provider_comment: `probe ${++probes}` } });

const openFeeds = (count: number, token: string, query = CHANGED) => openFeedsFor(Array<string>(count).fill(token), query);

/** A live feed per token, primed; deliveries of the priming are dropped from all of them. */
async function openFeedsFor(tokens: string[], query = CHANGED): Promise<Array<Feed<Change>>> {
  const feeds = tokens.map((token) => clients.subscribe<Change>(clients.open(token), query));
  const probe = await t.world.offeringUser("OK");
  for (const feed of feeds) await primeFeed(feed, () => touch(probe.uuid));
  await sleep(200);
  feeds.forEach((feed) => feed.drain());
  return feeds;
}

let people = 0;
type RoleRow = readonly [string, "CUSTOMER" | "PROJECT" | "OFFERING", string];

/** A user with a token and the given roles. */
async function userWithToken(...roles: RoleRow[]) {
  const { db } = t.app.deps;
  const user = await db.user.create({ data: { username: `viewer${++people}`, firstName: "V", lastName: "Iewer", email: `viewer${people}@example.org` } });
  const token = newTokenKey();
  await db.authToken.create({ data: { keyDigest: tokenDigest(token), userId: user.id } });
  for (const [role, scopeType, scopeId] of roles) await db.roleGrant.create({ data: { userId: user.id, role, scopeType, scopeId } });
  return { id: user.id, token };
}

/** The writer's token and roles, looked up and cached (TOKEN_CACHE_MS) right before a count, so no count pays for them. */
const authenticateWriter = () => t.http("GET", "/api/marketplace-offering-users/?page_size=1", { token: t.world.tokens.providerOwner });

/** The statements' beginnings, sorted: equal lists are the same work, and a failing comparison shows which differ. */
const shapesOf = (texts: string[]) => texts.map((text) => text.trim().replace(/\s+/g, " ").slice(0, 60)).sort();

/** Statements from a transition's request until every feed has its delivery. */
async function statementsToDeliver(feeds: Array<Feed<Change>>) {
  const ou = await t.world.offeringUser("CREATION_REQUESTED");
  await authenticateWriter();
  const { texts } = await countSql(async () => {
    const response = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} });
    expect(response.status).toBe(200);
    for (const feed of feeds) expect((await feed.nextData()).offeringUserChanged).toMatchObject({ offeringUserUuid: ou.uuid, state: "CREATING" });
  });
  return shapesOf(texts);
}

it("costs the same SQL for one subscription of a user as for twenty", async () => {
  const one = await openFeeds(1, t.world.tokens.providerManager);
  const single = await statementsToDeliver(one);
  await closeFeeds();
  const twenty = await openFeeds(20, t.world.tokens.providerManager);
  expect(await statementsToDeliver(twenty)).toEqual(single);
});

it("executes a selection that reads the database once per change for twenty subscriptions of one user, each delivered in full", async () => {
  await closeFeeds();
  const one = await openFeeds(1, t.world.tokens.providerManager, CHANGED_WITH_RECORD);
  const single = await statementsToDeliver(one);
  await closeFeeds();
  const twenty = await openFeeds(20, t.world.tokens.providerManager, CHANGED_WITH_RECORD);
  const ou = await t.world.offeringUser("CREATION_REQUESTED");
  await authenticateWriter();
  const { texts } = await countSql(async () => {
    await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} });
    for (const feed of twenty) {
      expect((await feed.nextData()).offeringUserChanged).toEqual({
        offeringUserUuid: ou.uuid,
        state: "CREATING",
        offeringUser: { uuid: ou.uuid, state: "CREATING", user: { username: expect.stringMatching(/^member/) } },
        event: { eventType: "marketplace_offering_user_updated" },
      });
    }
  });
  expect(shapesOf(texts)).toEqual(single);
});

it("executes separately for other users and other variables, so each gets what it asked for", async () => {
  await closeFeeds();
  const FILTERED = `subscription ($states: [OfferingUserState!]) { offeringUserChanged(state: $states) { offeringUserUuid state } }`;
  const manager = clients.open(t.world.tokens.providerManager);
  const creating = clients.subscribe<Change>(manager, FILTERED, { states: ["CREATING"] });
  const ok = clients.subscribe<Change>(manager, FILTERED, { states: ["OK"] });
  const staff = clients.subscribe<Change>(clients.open(t.world.tokens.staff), CHANGED_WITH_RECORD);
  await sleep(300);
  const ou = await t.world.offeringUser("CREATION_REQUESTED");
  await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} });
  expect((await creating.nextData()).offeringUserChanged).toEqual({ offeringUserUuid: ou.uuid, state: "CREATING" });
  expect((await staff.nextData()).offeringUserChanged).toMatchObject({ offeringUserUuid: ou.uuid, offeringUser: { state: "CREATING" } });
  await t.http("PATCH", `/api/marketplace-offering-users/${ou.uuid}/`, { token: t.world.tokens.providerOwner, body: { username: "shared-results" } });
  expect((await ok.nextData()).offeringUserChanged).toEqual({ offeringUserUuid: ou.uuid, state: "OK" });
  expect((await staff.nextData()).offeringUserChanged).toMatchObject({ offeringUserUuid: ou.uuid, offeringUser: { state: "OK" } });
  expect(creating.drain()).toEqual([]);
});

it("costs the same SQL for twenty viewers holding the same roles as for one: one role read, one decision", async () => {
  await closeFeeds();
  const managerRole = ["CUSTOMER.MANAGER", "CUSTOMER", t.world.provider.id] as const;
  const first = await userWithToken(managerRole);
  const single = await statementsToDeliver(await openFeeds(1, first.token));
  await closeFeeds();
  const viewers = await Promise.all(Array.from({ length: 20 }, () => userWithToken(managerRole)));
  const feeds = await openFeedsFor(viewers.map((v) => v.token));
  expect(await statementsToDeliver(feeds)).toEqual(single);
});

it("costs the same SQL for twenty viewers whose roles differ only where the rule does not look (a project of their own)", async () => {
  await closeFeeds();
  const managerRole = ["CUSTOMER.MANAGER", "CUSTOMER", t.world.provider.id] as const;
  const single = await statementsToDeliver(await openFeeds(1, (await userWithToken(managerRole)).token));
  await closeFeeds();
  const { db } = t.app.deps;
  const viewers = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const project = await db.project.create({ data: { customerId: t.world.consumer.id, name: `Own project ${i}` } });
      return userWithToken(managerRole, ["PROJECT.MEMBER", "PROJECT", project.id]);
    }),
  );
  const feeds = await openFeedsFor(viewers.map((v) => v.token));
  expect(await statementsToDeliver(feeds)).toEqual(single);
});

it.each([
  ["the one who sees it subscribed first", true],
  ["the one who does not subscribed first", false],
])("viewers whose roles answer the rule differently are decided apart (%s)", async (_label, seerFirst) => {
  await closeFeeds();
  const seer = await userWithToken(["CUSTOMER.MANAGER", "CUSTOMER", t.world.provider.id]);
  const outsider = await userWithToken(["CUSTOMER.MANAGER", "CUSTOMER", t.world.consumer.id]);
  // The outsider's own record, which both see: it primes both feeds.
  const own = await t.app.deps.db.offeringUser.create({ data: { offeringId: t.world.offering.id, userId: outsider.id, state: "OK" } });
  const order = seerFirst ? [seer, outsider] : [outsider, seer];
  const [first, second] = order.map((viewer) => clients.subscribe<Change>(clients.open(viewer.token), CHANGED));
  for (const feed of [first!, second!]) await primeFeed(feed, () => touch(toHex(own.id)));
  await sleep(200);
  const [seerFeed, outsiderFeed] = seerFirst ? [first!, second!] : [second!, first!];
  seerFeed.drain();
  outsiderFeed.drain();
  const ou = await t.world.offeringUser("CREATION_REQUESTED");
  await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} });
  expect((await seerFeed.nextData()).offeringUserChanged).toEqual({ offeringUserUuid: ou.uuid, state: "CREATING" });
  await sleep(300);
  expect(outsiderFeed.drain()).toEqual([]);
});

it("a viewer who sees a record only as its owner does not lend that to another viewer with the same roles", async () => {
  await closeFeeds();
  const [owner, other] = await Promise.all([userWithToken(), userWithToken()]);
  const { db } = t.app.deps;
  const [mine, theirs] = await Promise.all(
    [owner, other].map((u) => db.offeringUser.create({ data: { offeringId: t.world.offering.id, userId: u.id, state: "CREATION_REQUESTED" } })),
  );
  const ownerFeed = clients.subscribe<Change>(clients.open(owner.token), CHANGED);
  const otherFeed = clients.subscribe<Change>(clients.open(other.token), CHANGED);
  await primeFeed(ownerFeed, () => touch(toHex(mine.id)));
  await primeFeed(otherFeed, () => touch(toHex(theirs.id)));
  ownerFeed.drain();
  otherFeed.drain();
  await t.http("POST", `/api/marketplace-offering-users/${toHex(mine.id)}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} });
  await t.http("POST", `/api/marketplace-offering-users/${toHex(theirs.id)}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} });
  expect((await ownerFeed.nextData()).offeringUserChanged).toEqual({ offeringUserUuid: toHex(mine.id), state: "CREATING" });
  expect((await otherFeed.nextData()).offeringUserChanged).toEqual({ offeringUserUuid: toHex(theirs.id), state: "CREATING" });
  await sleep(300);
  expect(ownerFeed.drain()).toEqual([]);
  expect(otherFeed.drain()).toEqual([]);
});
