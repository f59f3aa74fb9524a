import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { otherProvider, seedMaintenance } from "../../test/support/maintenance-fixtures.ts";

/** Filters and ordering, on one provider's own announcements (a fresh app per file keeps the set known). */

let t: TestApp;
let ids: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  const at = (iso: string) => new Date(iso);
  const rows = {
    draftJan: await seedMaintenance(t, "DRAFT", { name: "b-draft", maintenanceType: 1, scheduledStart: at("2030-01-05T00:00:00Z"), scheduledEnd: at("2030-01-06T00:00:00Z"), created: at("2025-01-01T00:00:00Z") }),
    scheduledFeb: await seedMaintenance(t, "SCHEDULED", { name: "a-scheduled", maintenanceType: 2, scheduledStart: at("2030-02-05T00:00:00Z"), scheduledEnd: at("2030-02-06T00:00:00Z"), created: at("2025-01-02T00:00:00Z") }),
    runningMar: await seedMaintenance(t, "IN_PROGRESS", { name: "d-running", maintenanceType: 3, scheduledStart: at("2030-03-05T00:00:00Z"), scheduledEnd: at("2030-03-06T00:00:00Z"), created: at("2025-01-03T00:00:00Z") }),
    doneApr: await seedMaintenance(t, "COMPLETED", { name: "c-done", maintenanceType: 2, scheduledStart: at("2030-04-05T00:00:00Z"), scheduledEnd: at("2030-04-06T00:00:00Z"), created: at("2025-01-04T00:00:00Z") }),
    cancelledMay: await seedMaintenance(t, "CANCELLED", { name: "e-cancelled", maintenanceType: 4, scheduledStart: at("2030-05-05T00:00:00Z"), scheduledEnd: at("2030-05-06T00:00:00Z"), created: at("2025-01-05T00:00:00Z") }),
  };
  ids = Object.fromEntries(Object.entries(rows).map(([k, v]) => [v.uuid, k]));
});
afterAll(() => t.close());

async function names(path: string, token: string | undefined = t.world.tokens.providerOwner) {
  const res = await t.http("GET", path, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as Array<{ uuid: string }>).map((m) => ids[m.uuid]).filter(Boolean);
}

describe("management list", () => {
  it("default order is -created", async () => {
    expect(await names("/api/maintenance-announcements/")).toEqual(["cancelledMay", "doneApr", "runningMar", "scheduledFeb", "draftJan"]);
  });

  const cases: Array<[string, string[]]> = [
    ["state=Draft", ["draftJan"]],
    ["state=In progress", ["runningMar"]],
    ["state=Scheduled&state=Completed", ["doneApr", "scheduledFeb"]],
    ["maintenance_type=2", ["doneApr", "scheduledFeb"]],
    // Waldur's NumberFilter reads one value, the last.
    ["maintenance_type=3&maintenance_type=4", ["cancelledMay"]],
    ["maintenance_type=9", []],
    ["scheduled_start_after=2030-03-05T00:00:00Z", ["cancelledMay", "doneApr", "runningMar"]],
    ["scheduled_start_before=2030-02-05", ["scheduledFeb", "draftJan"]],
    ["scheduled_end_after=2030-02-01&scheduled_end_before=2030-03-06T00:00:00Z", ["runningMar", "scheduledFeb"]],
    ["o=name", ["scheduledFeb", "draftJan", "doneApr", "runningMar", "cancelledMay"]],
    ["o=-name", ["cancelledMay", "runningMar", "doneApr", "draftJan", "scheduledFeb"]],
    ["o=scheduled_start", ["draftJan", "scheduledFeb", "runningMar", "doneApr", "cancelledMay"]],
    ["o=-scheduled_end", ["cancelledMay", "doneApr", "runningMar", "scheduledFeb", "draftJan"]],
    ["o=created", ["draftJan", "scheduledFeb", "runningMar", "doneApr", "cancelledMay"]],
  ];
  for (const [query, expected] of cases) {
    it(query, async () => {
      expect(await names(`/api/maintenance-announcements/?${query.replace(" ", "%20")}`)).toEqual(expected);
    });
  }

  it("service_provider_uuid filters by provider", async () => {
    const other = await otherProvider(t);
    expect(await names(`/api/maintenance-announcements/?service_provider_uuid=${t.world.serviceProvider.uuid}`)).toHaveLength(5);
    expect(await names(`/api/maintenance-announcements/?service_provider_uuid=${other.serviceProvider.uuid}`)).toEqual([]);
  });

  const bad: Array<[string, Record<string, string[]>]> = [
    ["state=Open", { state: ["Select a valid choice. Open is not one of the available choices."] }],
    ["maintenance_type=x", { maintenance_type: ["Enter a whole number."] }],
    ["service_provider_uuid=nope", { service_provider_uuid: ["Enter a valid UUID."] }],
    ["scheduled_start_after=soon", { scheduled_start_after: ["Enter a valid date/time."] }],
    ["o=state", { o: ["Select a valid choice. state is not one of the available choices."] }],
  ];
  for (const [query, body] of bad) {
    it(`${query} → 400`, async () => {
      const res = await t.http("GET", `/api/maintenance-announcements/?${query}`, { token: t.world.tokens.staff });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(body);
    });
  }

  it("pagination: X-Result-Count and Link", async () => {
    const res = await t.http("GET", "/api/maintenance-announcements/?page_size=2&page=2", { token: t.world.tokens.staff });
    expect(res.body).toHaveLength(2);
    expect(res.headers.get("x-result-count")).toBe("5");
    expect(res.headers.get("link")).toContain('rel="next"');
  });
});

describe("public list", () => {
  it("anonymous; only Scheduled, In progress and Completed; ordered by -scheduled_start", async () => {
    expect(await names("/api/public-maintenance-announcements/", undefined)).toEqual(["doneApr", "runningMar", "scheduledFeb"]);
  });
  it("accepts the same filters and ordering", async () => {
    expect(await names("/api/public-maintenance-announcements/?maintenance_type=2", undefined)).toEqual(["doneApr", "scheduledFeb"]);
    expect(await names("/api/public-maintenance-announcements/?state=Draft", undefined)).toEqual([]);
    expect(await names("/api/public-maintenance-announcements/?o=scheduled_start", undefined)).toEqual(["scheduledFeb", "runningMar", "doneApr"]);
    expect(await names("/api/public-maintenance-announcements/?scheduled_end_before=2030-03-10", undefined)).toEqual(["runningMar", "scheduledFeb"]);
    expect((await t.http("GET", "/api/public-maintenance-announcements/?state=Nope")).status).toBe(400);
  });
});
