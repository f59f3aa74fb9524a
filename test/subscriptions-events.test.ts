import { describe, expect, it } from "vitest";
import { newTokenKey, tokenDigest } from "../src/auth/secrets.ts";
import { toHex } from "../src/platform/ids.ts";
import { useSubscriptionApp } from "./support/subscription-app.ts";
import { type Feed, primeFeed, sleep } from "./support/ws.ts";

const EVENT_CREATED = `subscription($eventType: [EventType!]) {
  eventCreated(eventType: $eventType) { eventId uuid eventType message context }
}`;
const OFFERING_USER_CHANGED = `subscription($offeringUuid: ID) {
  offeringUserChanged(offeringUuid: $offeringUuid) { offeringUserUuid previousState state offeringUser { state } event { eventType } }
}`;

interface EventCreated {
  eventCreated: { eventId: number; uuid: string; eventType: string; message: string; context: Record<string, any> };
}
interface Change {
  offeringUserChanged: { offeringUserUuid: string; previousState: string | null; state: string; offeringUser: { state: string } | null; event: { eventType: string } };
}

const { t, clients } = useSubscriptionApp();

const transition = (uuid: string, operation: string, token = t.world.tokens.providerOwner) =>
  t.http("POST", `/api/marketplace-offering-users/${uuid}/${operation}/`, { token, body: { comment: "see docs" } });

let counter = 0;
const touch = async (uuid: string) => {
  const res = await t.http("PATCH", `/api/marketplace-offering-users/${uuid}/update_comments/`, {
    token: t.world.tokens.staff,
    body: { service_provider_comment: `probe ${++counter}` },
  });
  expect(res.status).toBe(200);
};

const expectNothingPending = async (feed: Feed<unknown>) => {
  await sleep(200);
  expect(feed.drain()).toEqual([]);
};

/** A provider-side user with its own token and a manager role that a test may revoke. */
async function freshProviderManager() {
  const db = t.app.deps.db;
  const user = await db.user.create({ data: { username: `manager${++counter}`, firstName: "M", lastName: "Gr" } });
  const key = newTokenKey();
  await db.authToken.create({ data: { keyDigest: tokenDigest(key), userId: user.id } });
  await db.roleGrant.create({ data: { userId: user.id, role: "CUSTOMER.MANAGER", scopeType: "CUSTOMER", scopeId: t.world.provider.id } });
  return { id: user.id, uuid: toHex(user.id), token: key };
}

describe("eventCreated over graphql-ws", () => {
  it("the eventType filter delivers only events of those types", async () => {
    const feed = clients.subscribe<EventCreated>(clients.open(t.world.tokens.providerOwner), EVENT_CREATED, {
      eventType: ["marketplace_offering_user_restriction_updated"],
    });
    await primeFeed(feed, async () => transition((await t.world.offeringUser("CREATING")).uuid, "set_pending_account_linking"));
    const ou = await t.world.offeringUser("CREATION_REQUESTED");

    expect((await transition(ou.uuid, "begin_creating")).status).toBe(200);
    expect((await transition(ou.uuid, "set_pending_account_linking")).status).toBe(200);
    const { eventCreated } = await feed.nextData();
    expect(eventCreated.eventType).toBe("marketplace_offering_user_restriction_updated");
    expect(eventCreated.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(eventCreated.context).toMatchObject({ offering_user_uuid: ou.uuid, old_state: "Creating", new_state: "Pending account linking" });
    const stored = await t.http("GET", `/api/events/${eventCreated.eventId}/`, { token: t.world.tokens.providerOwner });
    expect(stored.body).toMatchObject({ uuid: eventCreated.uuid, event_type: eventCreated.eventType });
    await expectNothingPending(feed);
  });

  it("unfiltered, it delivers every visible kind of event, role grants included", async () => {
    const feed = clients.subscribe<EventCreated>(clients.open(t.world.tokens.providerOwner), EVENT_CREATED);
    const probe = await t.world.offeringUser("OK");
    await primeFeed(feed, () => touch(probe.uuid));
    const newcomer = await t.app.deps.db.user.create({ data: { username: `newcomer${++counter}`, firstName: "N", lastName: "C" } });

    const granted = await t.http("POST", `/api/customers/${t.world.provider.uuid}/add_user/`, {
      token: t.world.tokens.providerOwner,
      body: { user: toHex(newcomer.id), role: "CUSTOMER.SUPPORT" },
    });
    expect(granted.status).toBe(201);
    const { eventCreated } = await feed.nextData();
    expect(eventCreated.eventType).toBe("role_granted");
    expect(eventCreated.context).toMatchObject({ affected_user_uuid: toHex(newcomer.id), role_name: "CUSTOMER.SUPPORT" });
    await expectNothingPending(feed);
  });

  it("an unrelated user's feed receives none of the provider's events", async () => {
    const provider = clients.subscribe<EventCreated>(clients.open(t.world.tokens.providerOwner), EVENT_CREATED);
    const unrelated = clients.subscribe<EventCreated>(clients.open(t.world.tokens.unrelated), EVENT_CREATED);
    const own = await t.app.deps.db.offeringUser.create({
      data: { offeringId: t.world.offering.id, userId: t.world.users.unrelated.id, state: "OK" },
    });
    const probe = await t.world.offeringUser("OK");
    await primeFeed(provider, () => touch(probe.uuid));
    // Events about the unrelated user's own record concern them; they prove the feed is live.
    await primeFeed(unrelated, () => touch(toHex(own.id)));
    await sleep(100);
    provider.drain();

    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    expect((await transition(ou.uuid, "set_error_creating")).status).toBe(200);
    expect((await provider.nextData()).eventCreated.context.offering_user_uuid).toBe(ou.uuid);
    await touch(toHex(own.id));
    expect((await unrelated.nextData()).eventCreated.context.offering_user_uuid).toBe(toHex(own.id));
    await expectNothingPending(unrelated);
  });

  it("a subscriber whose role is revoked stops hearing of the provider's changes on the same connection", async () => {
    const manager = await freshProviderManager();
    const feed = clients.subscribe<Change>(clients.open(manager.token), OFFERING_USER_CHANGED);
    const own = await t.app.deps.db.offeringUser.create({ data: { offeringId: t.world.offering.id, userId: manager.id, state: "OK" } });
    await primeFeed(feed, () => touch(toHex(own.id)));
    const before = await t.world.offeringUser("CREATION_REQUESTED");
    expect((await transition(before.uuid, "begin_creating")).status).toBe(200);
    expect((await feed.nextData()).offeringUserChanged.offeringUserUuid).toBe(before.uuid);

    const revoked = await t.http("POST", `/api/customers/${t.world.provider.uuid}/delete_user/`, {
      token: t.world.tokens.providerOwner,
      body: { user: manager.uuid, role: "CUSTOMER.MANAGER" },
    });
    expect(revoked.status).toBe(200);
    const after = await t.world.offeringUser("CREATION_REQUESTED");
    expect((await transition(after.uuid, "begin_creating")).status).toBe(200);
    await touch(toHex(own.id));
    expect((await feed.nextData()).offeringUserChanged.offeringUserUuid).toBe(toHex(own.id));
    await expectNothingPending(feed);
  });
});

describe("subscriptions over Server-Sent Events", () => {
  it("POST /graphql with Accept: text/event-stream streams offeringUserChanged deliveries", async () => {
    const feed = await clients.overSse<Change>(t.world.tokens.providerOwner, OFFERING_USER_CHANGED, {
      offeringUuid: t.world.offering.uuid,
    });
    expect(feed.status).toBe(200);
    expect(feed.contentType).toMatch(/^text\/event-stream/);
    const probe = await t.world.offeringUser("OK");
    await primeFeed(feed, () => touch(probe.uuid));

    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    expect((await transition(ou.uuid, "begin_creating")).status).toBe(200);
    expect((await feed.nextData()).offeringUserChanged).toEqual({
      offeringUserUuid: ou.uuid,
      previousState: "CREATION_REQUESTED",
      state: "CREATING",
      offeringUser: { state: "CREATING" },
      event: { eventType: "marketplace_offering_user_updated" },
    });
    await expectNothingPending(feed);
  });

  it("an SSE subscription with a bad token is refused with an authentication error", async () => {
    const feed = await clients.overSse<EventCreated>("0".repeat(40), EVENT_CREATED);
    const delivery = await feed.next();
    expect(delivery.errors?.[0]).toMatchObject({ message: "Invalid token.", extensions: { code: "UNAUTHENTICATED" } });
    expect(delivery.data?.eventCreated).toBeUndefined();
    await expect(feed.next(2_000)).rejects.toThrow("subscription completed");
  });
});
