import { describe, expect, it } from "vitest";
import { useSubscriptionApp } from "../../test/support/subscription-app.ts";
import { type Feed, primeFeed, serverSentEventsFeed, sleep } from "../../test/support/ws.ts";
import { otherProvider, seedMaintenance } from "../../test/support/maintenance-fixtures.ts";

const MAINTENANCE_CHANGED = `subscription($serviceProviderUuid: ID) {
  maintenanceChanged(serviceProviderUuid: $serviceProviderUuid) {
    maintenanceAnnouncementUuid previousState state
    maintenanceAnnouncement { uuid state message actualStart }
    event { eventType context }
  }
}`;

const PUBLIC_CHANGED = `subscription { publicMaintenanceChanged { maintenanceAnnouncementUuid kind state announcement { uuid state message } } }`;

interface Change {
  maintenanceChanged: {
    maintenanceAnnouncementUuid: string;
    previousState: string | null;
    state: string | null;
    maintenanceAnnouncement: { uuid: string; state: string; message: string; actualStart: string | null } | null;
    event: { eventType: string; context: Record<string, unknown> };
  };
}
interface PublicChange {
  publicMaintenanceChanged: { maintenanceAnnouncementUuid: string; kind: string; state: string | null; announcement: { uuid: string; message: string } | null };
}

const { t, clients } = useSubscriptionApp();

let probeCounter = 0;
const touch = async (uuid: string) => {
  const res = await t.http("PATCH", `/api/maintenance-announcements/${uuid}/`, { token: t.world.tokens.staff, body: { message: `probe ${++probeCounter}` } });
  expect(res.status).toBe(200);
};
const act = (uuid: string, action: string) => t.http("POST", `/api/maintenance-announcements/${uuid}/${action}/`, { token: t.world.tokens.providerOwner });

/** Changes of one announcement only, so probes and other tests do not interleave. */
async function nextFor<T>(feed: Feed<T>, uuid: string, pick: (d: T) => { maintenanceAnnouncementUuid: string }) {
  for (;;) {
    const data = await feed.nextData();
    if (pick(data).maintenanceAnnouncementUuid === uuid) return data;
  }
}

/** Anonymous subscription over Server-Sent Events (graphql-ws connections need a token). */
async function anonymousSse<T>(query: string): Promise<Feed<T>> {
  const response = await fetch(`${t.baseUrl}/graphql`, {
    method: "POST",
    headers: { accept: "text/event-stream", "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  return serverSentEventsFeed<T>(response);
}

describe("maintenanceChanged", () => {
  it("delivers state moves after commit to the provider's managers, with the announcement and its event", async () => {
    const feed = clients.subscribe<Change>(clients.open(t.world.tokens.providerManager), MAINTENANCE_CHANGED);
    const probe = await seedMaintenance(t);
    await primeFeed(feed, () => touch(probe.uuid));

    const m = await seedMaintenance(t);
    await act(m.uuid, "schedule");
    const scheduled = (await nextFor(feed, m.uuid, (d) => d.maintenanceChanged)).maintenanceChanged;
    expect(scheduled).toMatchObject({
      previousState: "DRAFT",
      state: "SCHEDULED",
      maintenanceAnnouncement: { uuid: m.uuid, state: "SCHEDULED" },
      event: { eventType: "maintenance_announcement_scheduled", context: { maintenance_announcement_uuid: m.uuid } },
    });
    await act(m.uuid, "start_maintenance");
    const started = (await nextFor(feed, m.uuid, (d) => d.maintenanceChanged)).maintenanceChanged;
    expect(started).toMatchObject({ previousState: "SCHEDULED", state: "IN_PROGRESS" });
    expect(started.maintenanceAnnouncement!.actualStart).not.toBeNull();

    await t.http("DELETE", `/api/maintenance-announcements/${m.uuid}/`, { token: t.world.tokens.providerOwner });
    const deleted = (await nextFor(feed, m.uuid, (d) => d.maintenanceChanged)).maintenanceChanged;
    expect(deleted).toMatchObject({ previousState: "IN_PROGRESS", state: null, maintenanceAnnouncement: null, event: { eventType: "maintenance_announcement_deleted" } });
    feed.stop();
  });

  it("is silent for subscribers who may not manage the provider, and filters by service provider", async () => {
    const outsider = clients.subscribe<Change>(clients.open(t.world.tokens.projectAdmin), MAINTENANCE_CHANGED);
    const other = await otherProvider(t);
    const staffOther = clients.subscribe<Change>(clients.open(t.world.tokens.staff), MAINTENANCE_CHANGED, {
      serviceProviderUuid: other.serviceProvider.uuid,
    });
    const otherProbe = await seedMaintenance(t, "DRAFT", { serviceProviderId: other.serviceProvider.id });
    await primeFeed(staffOther, () => touch(otherProbe.uuid));
    const m = await seedMaintenance(t);
    await act(m.uuid, "schedule");
    await touch(m.uuid);
    await sleep(300);
    expect(outsider.drain()).toEqual([]);
    expect(staffOther.drain()).toEqual([]);
    const anonymous = clients.subscribe<Change>(clients.open(null), MAINTENANCE_CHANGED);
    expect(await anonymous.failed()).toBeDefined();
  });
});

describe("publicMaintenanceChanged (anonymous, SSE)", () => {
  it("tells when an announcement enters, changes within and leaves the public view; draft edits stay silent", async () => {
    const feed = await anonymousSse<PublicChange>(PUBLIC_CHANGED);
    const probe = await seedMaintenance(t, "SCHEDULED");
    await primeFeed(feed, () => touch(probe.uuid));

    const m = await seedMaintenance(t);
    await touch(m.uuid);
    await act(m.uuid, "schedule");
    const entered = (await nextFor(feed, m.uuid, (d) => d.publicMaintenanceChanged)).publicMaintenanceChanged;
    expect(entered).toMatchObject({ kind: "ENTERED", state: "SCHEDULED", announcement: { uuid: m.uuid } });

    await t.http("PATCH", `/api/maintenance-announcements/${m.uuid}/`, { token: t.world.tokens.providerOwner, body: { message: "Now public" } });
    const updated = (await nextFor(feed, m.uuid, (d) => d.publicMaintenanceChanged)).publicMaintenanceChanged;
    expect(updated).toMatchObject({ kind: "UPDATED", state: "SCHEDULED", announcement: { message: "Now public" } });

    await act(m.uuid, "cancel_maintenance");
    const left = (await nextFor(feed, m.uuid, (d) => d.publicMaintenanceChanged)).publicMaintenanceChanged;
    expect(left).toEqual({ maintenanceAnnouncementUuid: m.uuid, kind: "LEFT", state: null, announcement: null });
    feed.stop();
  });
});
