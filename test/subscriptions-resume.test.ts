import { describe, expect, it } from "vitest";
import { MAX_REPLAY } from "../src/events/resume.ts";
import { useSubscriptionApp } from "./support/subscription-app.ts";
import { orderIn } from "./support/order-fixtures.ts";
import { sleep } from "./support/ws.ts";

/** A dashboard that lost its socket resubscribes with the last event id it saw and misses nothing. */
const CHANGES = `subscription($after: Int, $offeringUuid: ID) {
  offeringUserChanged(after: $after, offeringUuid: $offeringUuid) { offeringUserUuid previousState state event { eventId } } }`;
const EVENTS = `subscription($after: Int, $eventType: [EventType!]) { eventCreated(after: $after, eventType: $eventType) { eventId eventType context } }`;

interface Change {
  offeringUserChanged: { offeringUserUuid: string; previousState: string | null; state: string; event: { eventId: number } };
}

const { t, clients } = useSubscriptionApp();

const transition = (uuid: string, operation: string) =>
  t.http("POST", `/api/marketplace-offering-users/${uuid}/${operation}/`, { token: t.world.tokens.providerOwner, body: {} });

async function lastEventId() {
  return (await t.app.deps.db.event.findFirst({ orderBy: { id: "desc" }, select: { id: true } }))?.id ?? 0;
}

describe("resuming a subscription after a disconnect", () => {
  it("offeringUserChanged(after:) first replays the changes missed, in order, then follows live", async () => {
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const seen = await lastEventId();
    expect((await transition(ou.uuid, "begin_creating")).status).toBe(200);
    expect((await transition(ou.uuid, "set_ok")).status).toBe(200);

    const feed = clients.subscribe<Change>(clients.open(t.world.tokens.providerOwner), CHANGES, { after: seen, offeringUuid: t.world.offering.uuid });
    const first = (await feed.nextData()).offeringUserChanged;
    const second = (await feed.nextData()).offeringUserChanged;
    expect([first, second].map((c) => [c.offeringUserUuid, c.previousState, c.state])).toEqual([
      [ou.uuid, "CREATION_REQUESTED", "CREATING"],
      [ou.uuid, "CREATING", "OK"],
    ]);
    expect(second.event.eventId).toBeGreaterThan(first.event.eventId);

    // Replayed first, the subscription is live by now: a change made now arrives once.
    expect((await transition(ou.uuid, "request_deletion")).status).toBe(200);
    const live = (await feed.nextData()).offeringUserChanged;
    expect([live.previousState, live.state]).toEqual(["OK", "DELETION_REQUESTED"]);
    await sleep(200);
    expect(feed.drain()).toEqual([]);
    feed.stop();
  });

  it("replays only what the subscriber may see", async () => {
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const seen = await lastEventId();
    expect((await transition(ou.uuid, "begin_creating")).status).toBe(200);
    const stranger = clients.subscribe<Change>(clients.open(t.world.tokens.unrelated), CHANGES, { after: seen });
    await sleep(300);
    expect(stranger.drain()).toEqual([]);
    stranger.stop();
  });

  it("eventCreated(after:) replays the missed events of the requested types", async () => {
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const seen = await lastEventId();
    expect((await transition(ou.uuid, "begin_creating")).status).toBe(200);
    const feed = clients.subscribe<{ eventCreated: { eventId: number; eventType: string; context: { offering_user_uuid?: string } } }>(
      clients.open(t.world.tokens.staff),
      EVENTS,
      { after: seen, eventType: ["marketplace_offering_user_updated"] },
    );
    const replayed = (await feed.nextData()).eventCreated;
    expect(replayed).toMatchObject({ eventType: "marketplace_offering_user_updated", context: { offering_user_uuid: ou.uuid } });
    expect(replayed.eventId).toBeGreaterThan(seen);
    feed.stop();
  });

  it("orderChanged(after:) replays the order's missed transitions too, then follows live", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
    const seen = await lastEventId();
    const approve = await t.http("POST", `/api/marketplace-orders/${order.uuid}/approve_by_provider/`, { token: t.world.tokens.providerOwner, body: {} });
    expect(approve.status).toBe(200);
    const feed = clients.subscribe<{ orderChanged: { orderUuid: string; previousState: string; state: string } }>(
      clients.open(t.world.tokens.providerOwner),
      `subscription($after: Int) { orderChanged(after: $after) { orderUuid previousState state } }`,
      { after: seen },
    );
    expect((await feed.nextData()).orderChanged).toEqual({ orderUuid: order.uuid, previousState: "PENDING_PROVIDER", state: "EXECUTING" });
    const done = await t.http("POST", `/api/marketplace-orders/${order.uuid}/set_state_done/`, { token: t.world.tokens.providerOwner, body: {} });
    expect(done.status).toBe(200);
    expect((await feed.nextData()).orderChanged).toEqual({ orderUuid: order.uuid, previousState: "EXECUTING", state: "DONE" });
    feed.stop();
  });

  it(`a subscriber more than ${MAX_REPLAY} events behind is told to re-read, naming \`after\``, async () => {
    const count = await t.app.deps.db.event.count();
    if (count <= MAX_REPLAY) {
      const db = t.app.deps.db;
      await db.event.createMany({ data: Array.from({ length: MAX_REPLAY + 1 - count }, (_, i) => ({ eventType: "role_granted", message: `filler ${i}`, context: {} })) });
    }
    const late = clients.subscribe(clients.open(t.world.tokens.staff), EVENTS, { after: 0 });
    expect(await late.failed()).toMatchObject([
      { message: expect.stringContaining("re-read"), extensions: { code: "VALIDATION", fields: { after: [`More than ${MAX_REPLAY} changes were missed.`] } } },
    ]);
    late.stop();
  });
});
