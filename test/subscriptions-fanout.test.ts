import { expect, it } from "vitest";
import { useSubscriptionApp } from "./support/subscription-app.ts";
import { countSql } from "./support/sql-counter.ts";
import { type Feed, primeFeed, sleep } from "./support/ws.ts";

/** One user's many subscriptions share one visibility decision per published change. */

const CHANGED = `subscription { offeringUserChanged { offeringUserUuid state } }`;
type Change = { offeringUserChanged: { offeringUserUuid: string; state: string } };

const { t, clients } = useSubscriptionApp();

let probes = 0;
const touch = (uuid: string) =>
  t.http("PATCH", `/api/marketplace-offering-users/${uuid}/update_comments/`, { token: t.world.tokens.staff, body: { service_provider_comment: `probe ${++probes}` } });

async function openFeeds(count: number, token: string): Promise<Array<Feed<Change>>> {
  const feeds = Array.from({ length: count }, () => clients.subscribe<Change>(clients.open(token), CHANGED));
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
    for (const feed of feeds) expect((await feed.nextData()).offeringUserChanged).toEqual({ offeringUserUuid: ou.uuid, state: "CREATING" });
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
