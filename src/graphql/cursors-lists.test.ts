/**
 * Keyset cursors over GraphQL on more lists than offering users (cursors.test.ts): orders by a nullable column and by
 * a relation's, events that share their time, and the lists ordered by a value computed per row (maintenance
 * announcements' minutes, offerings' total customers). A client paging them while rows are inserted and deleted sees
 * every row that stays exactly once, in order. Runs on in-memory PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { connectionDocument, EVENTS, LiveList, nextOf, ORDERS, pager, uuids } from "../../test/support/live-list.ts";
import { parseUuid, toHex } from "../platform/ids.ts";

let t: TestApp;
let client: ReturnType<typeof pager>;
beforeAll(async () => {
  t = await startTestApp();
  client = pager(t, t.world.tokens.staff);
});
afterAll(() => t.close());

const wholeList = (document: string, variables: Record<string, unknown>) => client.wholeList(document, variables);

describe("orders", () => {
  let offering: { id: string; uuid: string };

  async function add(created: Date, extra: { consumerReviewedAt?: Date; planId?: string } = {}) {
    const { db } = t.app.deps;
    const order = await db.order.create({ data: { offeringId: offering.id, projectId: t.world.project.id, state: "PENDING_PROVIDER", created, ...extra } });
    return toHex(order.id);
  }
  const remove = (uuid: string) => t.app.deps.db.order.delete({ where: { id: parseUuid(uuid)! } });
  const day = (n: number) => new Date(Date.UTC(2025, 5, 1 + n));

  beforeAll(async () => {
    const row = await t.app.deps.db.offering.create({ data: { customerId: t.world.provider.id, name: "Order cursors", type: "Marketplace.Basic", state: "ACTIVE" } });
    offering = { id: row.id, uuid: toHex(row.id) };
  });

  it("forward, newest first (the default): new orders on top are behind, deletes on either side neither repeat nor skip", async () => {
    const initial = [];
    for (let i = 0; i < 9; i++) initial.push(await add(day(i % 3 === 0 ? 0 : i)));
    const live = new LiveList(initial, remove);
    const variables = { filter: { offeringUuid: [offering.uuid] } };
    const seen = await client.walk(ORDERS, variables, "forward", 2, async (index, p) => {
      if (index === 0) live.insertedBehind.push(await add(day(30)));
      if (index === 1) {
        const cursorRow = uuids(p)[1];
        await live.deleteAhead(nextOf(await wholeList(ORDERS, variables), cursorRow, "forward"));
        await live.deleteSeen(cursorRow);
        live.insertedAhead.push(await add(day(-5)));
      }
    });
    live.expectSeenBy(seen, await wholeList(ORDERS, variables));
  });

  it("backward by a nullable column (consumer_reviewed_at ascending, nulls last) and by a plan's price (a relation that may be missing)", async () => {
    const plan = await t.app.deps.db.offeringPlan.create({ data: { offeringId: offering.id, name: "Priced", unitPrice: 3 } });
    for (const orderBy of [["CONSUMER_REVIEWED_AT_ASC"], ["COST_DESC", "CREATED_ASC"]]) {
      const initial = [];
      for (let i = 0; i < 8; i++) initial.push(await add(day(i), { ...(i % 3 ? { consumerReviewedAt: day(i % 4) } : {}), ...(i % 2 ? { planId: plan.id } : {}) }));
      const live = new LiveList(initial, remove);
      const variables = { filter: { offeringUuid: [offering.uuid] }, orderBy };
      const seen = await client.walk(ORDERS, variables, "backward", 3, async (index, p) => {
        if (index === 0) {
          await live.deleteSeen(uuids(p)[0]);
          live.insertedAhead.push(await add(day(-10), { consumerReviewedAt: day(-10), planId: plan.id }));
        }
      });
      live.expectSeenBy(seen, await wholeList(ORDERS, variables));
      for (const uuid of await wholeList(ORDERS, variables)) await remove(uuid);
    }
  });
});

describe("events", () => {
  let counter = 0;
  const TYPE = "cursor_test_event";
  const variables = { filter: { eventType: [TYPE] } };

  async function add(created: Date) {
    const event = await t.app.deps.db.event.create({ data: { eventType: TYPE, message: `event ${++counter}`, created } });
    return toHex(event.uuid);
  }
  const remove = (uuid: string) => t.app.deps.db.event.delete({ where: { uuid: parseUuid(uuid)! } });

  it("forward and backward, newest first and oldest first: events sharing their time keep their id order", async () => {
    for (const [direction, orderBy] of [["forward", "CREATED_DESC"], ["backward", "CREATED_ASC"], ["forward", "CREATED_ASC"]] as const) {
      const initial = [];
      // Events of one transaction share their time.
      for (let i = 0; i < 8; i++) initial.push(await add(new Date(Date.UTC(2025, 0, 1 + Math.floor(i / 3)))));
      const live = new LiveList(initial, remove);
      const listed = { ...variables, orderBy };
      const seen = await client.walk(EVENTS, listed, direction, 2, async (index, p) => {
        const cursorRow = direction === "forward" ? uuids(p).at(-1)! : uuids(p)[0];
        if (index === 0) {
          // The newest event is at the top of a list newest first, at its end otherwise.
          const newest = await add(new Date(Date.UTC(2026, 0, 1)));
          const atTheWalksStart = (orderBy === "CREATED_DESC") === (direction === "forward");
          (atTheWalksStart ? live.insertedBehind : live.insertedAhead).push(newest);
          await live.deleteSeen(cursorRow);
        } else if (index === 1) {
          await live.deleteAhead(nextOf(await wholeList(EVENTS, listed), cursorRow, direction));
        }
      });
      live.expectSeenBy(seen, await wholeList(EVENTS, listed));
      for (const uuid of await wholeList(EVENTS, listed)) await remove(uuid);
    }
  });
});

describe("lists ordered by a value computed per row", () => {
  const MAINTENANCE = connectionDocument("maintenanceAnnouncements", "MaintenanceAnnouncementFilter", "[MaintenanceAnnouncementOrder!]");
  const OFFERINGS = connectionDocument("offerings", "OfferingFilter", "[OfferingOrder!]");
  const scheduled = new Date("2030-01-01T10:00:00Z");
  const minutes = (n: number) => new Date(scheduled.getTime() + n * 60_000);

  it("maintenance announcements by start delta (descending, nulls first) forward and by overrun then name backward", async () => {
    const { db } = t.app.deps;
    const customer = await db.customer.create({ data: { name: "Maintenance cursors" } });
    const provider = await db.serviceProvider.create({ data: { customerId: customer.id } });
    let counter = 0;
    /** An announcement that started `start` minutes late and ended `overrun` minutes late (null: not yet). */
    const add = async (start: number | null, overrun: number | null = null, name = `Window ${String(++counter).padStart(3, "0")}`) => {
      const row = await db.maintenanceAnnouncement.create({
        data: {
          name, message: "", serviceProviderId: provider.id, state: "SCHEDULED", scheduledStart: scheduled, scheduledEnd: minutes(60),
          actualStart: start === null ? null : minutes(start), actualEnd: overrun === null ? null : minutes(60 + overrun),
        },
      });
      return toHex(row.id);
    };
    const remove = (uuid: string) => db.maintenanceAnnouncement.delete({ where: { id: parseUuid(uuid)! } });
    const filter = { serviceProviderUuid: [toHex(provider.id)] };

    for (const [direction, orderBy] of [["forward", ["START_DELTA_MINUTES_DESC"]], ["backward", ["OVERRUN_MINUTES_ASC", "NAME_DESC"]]] as const) {
      const initial = [];
      for (const [start, overrun] of [[5, 1], [null, null], [5, null], [-3, 2], [20, 2], [0, -1], [5, 1], [null, null]] as const) initial.push(await add(start, overrun));
      const live = new LiveList(initial, remove);
      const variables = { filter, orderBy };
      const seen = await client.walk(MAINTENANCE, variables, direction, 2, async (index, p) => {
        const cursorRow = direction === "forward" ? uuids(p)[1] : uuids(p)[0];
        if (index === 0) {
          await live.deleteAhead(nextOf(await wholeList(MAINTENANCE, variables), cursorRow, direction));
          await live.deleteSeen(cursorRow);
          // Forward, not started (null, first descending; the newest first) goes to the top (behind), the smallest
          // delta to the end (ahead); backward, no overrun (null, last ascending) named last goes to the end (behind),
          // the least overrun to the top (ahead).
          live.insertedBehind.push(direction === "forward" ? await add(null) : await add(1, null, "A"));
          live.insertedAhead.push(direction === "forward" ? await add(-90) : await add(1, -30));
        }
      });
      live.expectSeenBy(seen, await wholeList(MAINTENANCE, variables));
      for (const uuid of await wholeList(MAINTENANCE, variables)) await remove(uuid);
    }
  });

  it("offerings by total customers (descending), then name", async () => {
    const { db } = t.app.deps;
    const provider = await db.customer.create({ data: { name: "Totals provider" } });
    const consumers: Array<{ id: string }> = [];
    for (let i = 0; i < 3; i++) {
      const customer = await db.customer.create({ data: { name: `Totals consumer ${i}` } });
      consumers.push(await db.project.create({ data: { customerId: customer.id, name: `Totals ${i}` } }));
    }
    /** An offering with an active resource in the projects of `customers` consumers (so that many total customers). */
    const add = async (name: string, customers: number) => {
      const offering = await db.offering.create({ data: { customerId: provider.id, name, type: "Marketplace.Basic", state: "ACTIVE" } });
      for (const project of consumers.slice(0, customers)) await db.resource.create({ data: { offeringId: offering.id, projectId: project.id, state: "OK" } });
      return toHex(offering.id);
    };
    const remove = async (uuid: string) => {
      await db.resource.deleteMany({ where: { offeringId: parseUuid(uuid)! } });
      await db.offering.delete({ where: { id: parseUuid(uuid)! } });
    };
    const initial = [];
    for (const [name, customers] of [["a", 1], ["b", 3], ["c", 0], ["d", 2], ["e", 1], ["f", 0], ["g", 2]] as const) initial.push(await add(name, customers));
    const live = new LiveList(initial, remove);
    const variables = { filter: { customerUuid: [toHex(provider.id)] }, orderBy: ["TOTAL_CUSTOMERS_DESC", "NAME_ASC"] };
    const seen = await client.walk(OFFERINGS, variables, "forward", 3, async (index, p) => {
      if (index === 0) {
        const cursorRow = uuids(p)[2];
        await live.deleteAhead(nextOf(await wholeList(OFFERINGS, variables), cursorRow, "forward"));
        await live.deleteSeen(cursorRow);
        live.insertedBehind.push(await add("a", 3));
        live.insertedAhead.push(await add("z", 0));
      }
    });
    live.expectSeenBy(seen, await wholeList(OFFERINGS, variables));
  });
});
