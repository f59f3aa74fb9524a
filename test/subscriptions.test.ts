import { describe, expect, it } from "vitest";
import type { OfferingUserState } from "../src/generated/prisma/client.ts";
import { toHex } from "../src/platform/ids.ts";
import { globalId } from "./support/global-ids.ts";
import { useSubscriptionApp } from "./support/subscription-app.ts";
import { closeOnInit, type Feed, primeFeed, sleep } from "./support/ws.ts";

const OFFERING_USER_CHANGED = `subscription($offeringUuid: ID, $providerUuid: ID, $state: [OfferingUserState!]) {
  offeringUserChanged(offeringUuid: $offeringUuid, providerUuid: $providerUuid, state: $state) {
    offeringUserUuid previousState state
    offeringUser { uuid state runtimeState }
    event { eventId uuid eventType message context }
  }
}`;

interface Change {
  offeringUserChanged: {
    offeringUserUuid: string;
    previousState: OfferingUserState | null;
    state: OfferingUserState;
    offeringUser: { uuid: string; state: OfferingUserState; runtimeState: string } | null;
    event: { eventId: number; uuid: string; eventType: string; message: string; context: Record<string, unknown> };
  };
}

const { t, clients } = useSubscriptionApp();

const transition = (uuid: string, operation: string, token = t.world.tokens.providerOwner) =>
  t.http("POST", `/api/marketplace-offering-users/${uuid}/${operation}/`, { token, body: {} });

let commentCounter = 0;
/** A change that touches nothing but the comment of `ou`, so it can be repeated to prime a feed. */
const touch = async (ou: { uuid: string }) => {
  const res = await t.http("PATCH", `/api/marketplace-offering-users/${ou.uuid}/update_comments/`, {
    token: t.world.tokens.staff,
    body: { service_provider_comment: `probe ${++commentCounter}` },
  });
  expect(res.status).toBe(200);
};

async function subscribeChanges(token: string, variables: Record<string, unknown> = {}) {
  const feed = clients.subscribe<Change>(clients.open(token), OFFERING_USER_CHANGED, variables);
  return feed;
}

async function primedChanges(token: string, variables: Record<string, unknown> = {}) {
  const feed = await subscribeChanges(token, variables);
  const probe = await t.world.offeringUser("OK");
  await primeFeed(feed, () => touch(probe));
  return feed;
}

/** Another offering, of the world's provider or of a provider of its own. */
async function otherOffering(ownProvider: boolean) {
  const db = t.app.deps.db;
  const customerId = ownProvider ? (await db.customer.create({ data: { name: "Elsewhere" } })).id : t.world.provider.id;
  const offering = await db.offering.create({
    data: { customerId, name: "Cloud", type: "Marketplace.Basic", state: "ACTIVE", pluginOptions: { service_provider_can_create_offering_user: true } },
  });
  return { offering, customerId };
}

async function offeringUserOn(offeringId: string, state: OfferingUserState = "CREATION_REQUESTED") {
  const db = t.app.deps.db;
  const user = await db.user.create({ data: { username: `elsewhere${++commentCounter}`, firstName: "E", lastName: "W" } });
  const ou = await db.offeringUser.create({ data: { offeringId, userId: user.id, state } });
  return { id: ou.id, uuid: toHex(ou.id) };
}

const expectNothingPending = async (feed: Feed<unknown>) => {
  await sleep(200);
  expect(feed.drain()).toEqual([]);
};

describe("offeringUserChanged over graphql-ws", () => {
  it("delivers a REST transition after commit: record, previous and new state, and its event", async () => {
    const feed = await primedChanges(t.world.tokens.providerOwner);
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    expect((await transition(ou.uuid, "begin_creating")).status).toBe(200);

    const change = (await feed.nextData()).offeringUserChanged;
    expect(change.offeringUserUuid).toBe(ou.uuid);
    expect(change.previousState).toBe("CREATION_REQUESTED");
    expect(change.state).toBe("CREATING");
    // Read by the subscriber from the database when delivered: the transaction has committed.
    expect(change.offeringUser).toEqual({ uuid: ou.uuid, state: "CREATING", runtimeState: "ACTIVE" });
    expect(change.event.eventType).toBe("marketplace_offering_user_updated");
    expect(change.event.context).toMatchObject({
      offering_user_uuid: ou.uuid,
      old_state: "Requested",
      new_state: "Creating",
      operation: "begin_creating",
      user_uuid: t.world.users.providerOwner.uuid,
    });
    const stored = await t.http("GET", `/api/events/${change.event.eventId}/`, { token: t.world.tokens.staff });
    expect(stored.status).toBe(200);
    expect(stored.body.uuid).toBe(change.event.uuid);
    await expectNothingPending(feed);
  });

  it("delivers a GraphQL mutation too, and nothing for a rejected transition", async () => {
    const feed = await primedChanges(t.world.tokens.providerManager);
    const ou = await t.world.offeringUser("CREATING");
    expect((await transition(ou.uuid, "set_deleted")).status).toBe(400);
    const result = await t.gql(
      `mutation($id: ID!) { setOkOfferingUser(input: { id: $id }) { ... on OfferingUser { state } } }`,
      { id: globalId("OfferingUser", ou.uuid) },
      t.world.tokens.providerOwner,
    );
    expect(result).toEqual({ data: { setOkOfferingUser: { state: "OK" } } });

    const change = (await feed.nextData()).offeringUserChanged;
    expect(change).toMatchObject({ offeringUserUuid: ou.uuid, previousState: "CREATING", state: "OK" });
    expect(change.offeringUser?.state).toBe("OK");
    await expectNothingPending(feed);
  });

  it("offeringUuid filter: a change on another offering of the same provider is not delivered", async () => {
    const { offering } = await otherOffering(false);
    const elsewhere = await offeringUserOn(offering.id);
    const feed = await primedChanges(t.world.tokens.staff, { offeringUuid: t.world.offering.uuid });
    const here = await t.world.offeringUser("CREATION_REQUESTED");

    expect((await transition(elsewhere.uuid, "begin_creating")).status).toBe(200);
    expect((await transition(here.uuid, "begin_creating")).status).toBe(200);
    expect((await feed.nextData()).offeringUserChanged.offeringUserUuid).toBe(here.uuid);
    await expectNothingPending(feed);
  });

  it("providerUuid filter (dashed uuid accepted): a change under another provider is not delivered", async () => {
    const { offering } = await otherOffering(true);
    const elsewhere = await offeringUserOn(offering.id);
    const feed = await primedChanges(t.world.tokens.staff, { providerUuid: t.world.provider.id });
    const here = await t.world.offeringUser("CREATION_REQUESTED");

    expect((await transition(elsewhere.uuid, "set_error_creating", t.world.tokens.staff)).status).toBe(200);
    expect((await transition(here.uuid, "set_error_creating")).status).toBe(200);
    expect((await feed.nextData()).offeringUserChanged).toMatchObject({ offeringUserUuid: here.uuid, state: "ERROR_CREATING" });
    await expectNothingPending(feed);
  });

  it("state filter: only changes into one of the given states are delivered", async () => {
    const feed = await subscribeChanges(t.world.tokens.providerOwner, { state: ["ERROR_CREATING", "OK"] });
    await primeFeed(feed, async () => transition((await t.world.offeringUser("CREATION_REQUESTED")).uuid, "set_ok"));
    const ou = await t.world.offeringUser("CREATION_REQUESTED");

    expect((await transition(ou.uuid, "begin_creating")).status).toBe(200);
    expect((await transition(ou.uuid, "set_error_creating")).status).toBe(200);
    expect((await feed.nextData()).offeringUserChanged).toMatchObject({
      offeringUserUuid: ou.uuid,
      previousState: "CREATING",
      state: "ERROR_CREATING",
    });
    await expectNothingPending(feed);
  });

  it("an unrelated user hears nothing of the provider's offering users while the provider owner does", async () => {
    const owner = await primedChanges(t.world.tokens.providerOwner);
    // The unrelated user's own record is the one change they may hear of; it proves their feed is live.
    const own = await t.app.deps.db.offeringUser.create({
      data: { offeringId: t.world.offering.id, userId: t.world.users.unrelated.id, state: "OK" },
    });
    const unrelated = await subscribeChanges(t.world.tokens.unrelated);
    await primeFeed(unrelated, () => touch({ uuid: toHex(own.id) }));
    owner.drain();

    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    expect((await transition(ou.uuid, "begin_creating")).status).toBe(200);
    expect((await owner.nextData()).offeringUserChanged.offeringUserUuid).toBe(ou.uuid);
    await touch({ uuid: toHex(own.id) });
    expect((await unrelated.nextData()).offeringUserChanged.offeringUserUuid).toBe(toHex(own.id));
    await expectNothingPending(unrelated);
  });

  it("a project admin who may see a member's offering user gets the change without errors", async () => {
    const feed = await subscribeChanges(t.world.tokens.projectAdmin);
    await primeFeed(feed, async () => transition((await t.world.offeringUser("CREATION_REQUESTED")).uuid, "begin_creating"));
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const visible = await t.http("GET", `/api/marketplace-offering-users/${ou.uuid}/`, { token: t.world.tokens.projectAdmin });
    expect(visible.status).toBe(200);

    expect((await transition(ou.uuid, "begin_creating")).status).toBe(200);
    const delivery = await feed.next();
    expect(delivery.errors).toBeUndefined();
    expect(delivery.data?.offeringUserChanged).toMatchObject({ offeringUserUuid: ou.uuid, state: "CREATING" });
  });

  it("deletion delivers offeringUser null and the deletion event", async () => {
    const feed = await primedChanges(t.world.tokens.providerOwner, { offeringUuid: t.world.offering.uuid });
    const ou = await t.world.offeringUser("OK");
    const deleted = await t.http("DELETE", `/api/marketplace-offering-users/${ou.uuid}/`, { token: t.world.tokens.providerOwner });
    expect(deleted.status).toBe(204);

    const change = (await feed.nextData()).offeringUserChanged;
    expect(change).toMatchObject({ offeringUserUuid: ou.uuid, previousState: "OK", state: "OK", offeringUser: null });
    expect(change.event.eventType).toBe("marketplace_offering_user_deleted");
    expect(change.event.context).toMatchObject({ offering_user_uuid: ou.uuid });
    await expectNothingPending(feed);
  });
});

describe("graphql-ws authentication", () => {
  it("closes with 4403 when connection_init has no token or a bad one, and acknowledges a good one", async () => {
    expect(await closeOnInit(t.port)).toMatchObject({ code: 4403, acknowledged: false });
    expect(await closeOnInit(t.port, {})).toMatchObject({ code: 4403, acknowledged: false });
    expect(await closeOnInit(t.port, { authorization: `Token ${"0".repeat(40)}` })).toMatchObject({ code: 4403, acknowledged: false });
    expect(await closeOnInit(t.port, { authorization: t.world.tokens.staff })).toMatchObject({ code: 4403, acknowledged: false });
    expect(await closeOnInit(t.port, { authorization: `Token ${t.world.tokens.staff}` })).toMatchObject({ acknowledged: true });
  });

  it("a graphql-ws client with a bad token sees its subscription fail with close code 4403", async () => {
    const feed = clients.subscribe<Change>(clients.open("f".repeat(40)), OFFERING_USER_CHANGED);
    const failure = (await feed.failed()) as { code?: number } | undefined;
    expect(failure?.code).toBe(4403);
  });
});
