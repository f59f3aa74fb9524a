import { expect, it } from "vitest";
import { useSubscriptionApp } from "./support/subscription-app.ts";
import { countSql } from "./support/sql-counter.ts";
import { type Feed, primeFeed, sleep } from "./support/ws.ts";

/**
 * One user's many subscriptions share one visibility decision per published change, and those of one document and
 * variables share one execution of its selection.
 */

const CHANGED = `subscription { offeringUserChanged { offeringUserUuid state } }`;
const CHANGED_WITH_RECORD = `subscription { offeringUserChanged { offeringUserUuid state offeringUser { uuid state url } event { eventType } } }`;
type Change = { offeringUserChanged: { offeringUserUuid: string; state: string } };

const { t, clients } = useSubscriptionApp();

let probes = 0;
const touch = (uuid: string) =>
  t.http("PATCH", `/api/marketplace-offering-users/${uuid}/update_comments/`, { token: t.world.tokens.staff, body: { service_provider_comment: `probe ${++probes}` } });

async function openFeeds(count: number, token: string, query = CHANGED): Promise<Array<Feed<Change>>> {
  const feeds = Array.from({ length: count }, () => clients.subscribe<Change>(clients.open(token), query));
  const probe = await t.world.offeringUser("OK");
  for (const feed of feeds) await primeFeed(feed, () => touch(probe.uuid));
  await sleep(200);
  feeds.forEach((feed) => feed.drain());
  return feeds;
}

/** Statements from a transition's request until every feed has its delivery. */
async function statementsToDeliver(feeds: Array<Feed<Change>>) {
  const ou = await t.world.offeringUser("CREATION_REQUESTED");
  const { statements } = await countSql(async () => {
    const response = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} });
    expect(response.status).toBe(200);
    for (const feed of feeds) expect((await feed.nextData()).offeringUserChanged).toMatchObject({ offeringUserUuid: ou.uuid, state: "CREATING" });
  });
  return statements;
}

it("costs the same SQL for one subscription of a user as for twenty", async () => {
  const one = await openFeeds(1, t.world.tokens.providerManager);
  const single = await statementsToDeliver(one);
  await clients.closeAll();
  const twenty = await openFeeds(20, t.world.tokens.providerManager);
  expect(await statementsToDeliver(twenty)).toBe(single);
});

it("executes a selection that reads the database once per change for twenty subscriptions of one user, each delivered in full", async () => {
  await clients.closeAll();
  const one = await openFeeds(1, t.world.tokens.providerManager, CHANGED_WITH_RECORD);
  const single = await statementsToDeliver(one);
  await clients.closeAll();
  const twenty = await openFeeds(20, t.world.tokens.providerManager, CHANGED_WITH_RECORD);
  const ou = await t.world.offeringUser("CREATION_REQUESTED");
  const { statements } = await countSql(async () => {
    await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} });
    for (const feed of twenty) {
      expect((await feed.nextData()).offeringUserChanged).toEqual({
        offeringUserUuid: ou.uuid,
        state: "CREATING",
        offeringUser: { uuid: ou.uuid, state: "CREATING", url: `${t.baseUrl}/api/marketplace-offering-users/${ou.uuid}/` },
        event: { eventType: "marketplace_offering_user_updated" },
      });
    }
  });
  expect(statements).toBe(single);
});

it("executes separately for other users and other variables, so each gets what it asked for", async () => {
  await clients.closeAll();
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
