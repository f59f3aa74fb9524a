import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { seedMaintenance } from "../../test/support/maintenance-fixtures.ts";
import { timingOf } from "./timing.ts";

/** Waldur's computed timing fields, the timing_bucket filter and the orderings by the computed minutes. */

const at = (time: string) => new Date(`2030-01-01T${time}Z`);
const scheduled = { scheduledStart: at("10:00:00"), scheduledEnd: at("12:00:00") };

describe("timingOf", () => {
  const cases: Array<[string, Date | null, Date | null, ReturnType<typeof timingOf>]> = [
    ["not started", null, null, { startDeltaMinutes: null, overrunMinutes: null, timingBucket: "PENDING" }],
    ["started within the minute", at("10:00:59"), null, { startDeltaMinutes: 0, overrunMinutes: null, timingBucket: "ON_TIME" }],
    ["15 minutes late, 15 over", at("10:15:00"), at("12:15:59"), { startDeltaMinutes: 15, overrunMinutes: 15, timingBucket: "ON_TIME" }],
    ["16 minutes late", at("10:16:00"), null, { startDeltaMinutes: 16, overrunMinutes: null, timingBucket: "LATE_START" }],
    ["16 minutes early, ended early", at("09:44:00"), at("11:30:00"), { startDeltaMinutes: -16, overrunMinutes: -30, timingBucket: "EARLY" }],
    ["late and 16 over: the overrun wins", at("10:20:00"), at("12:16:30"), { startDeltaMinutes: 20, overrunMinutes: 16, timingBucket: "OVERRUN" }],
    ["early by 90 seconds truncates to -1", at("09:58:30"), null, { startDeltaMinutes: -1, overrunMinutes: null, timingBucket: "ON_TIME" }],
  ];
  for (const [name, actualStart, actualEnd, expected] of cases) {
    it(name, () => expect(timingOf({ ...scheduled, actualStart, actualEnd })).toEqual(expected));
  }
});

let t: TestApp;
let names: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  const seed = (name: string, state: Parameters<typeof seedMaintenance>[1], created: string, actualStart?: string, actualEnd?: string) =>
    seedMaintenance(t, state, {
      name,
      ...scheduled,
      created: new Date(`2025-01-01T${created}Z`),
      actualStart: actualStart ? at(actualStart) : null,
      actualEnd: actualEnd ? at(actualEnd) : null,
    });
  const rows = [
    await seed("pending", "DRAFT", "00:00:01"),
    await seed("onTime", "COMPLETED", "00:00:02", "10:15:00", "12:15:00"),
    await seed("late", "IN_PROGRESS", "00:00:03", "10:16:00"),
    await seed("early", "COMPLETED", "00:00:04", "09:44:00", "11:30:00"),
    await seed("overrun", "COMPLETED", "00:00:05", "10:20:00", "12:16:30"),
    await seed("published", "SCHEDULED", "00:00:06"),
  ];
  names = Object.fromEntries(rows.map((row) => [row.uuid, row.name]));
});
afterAll(() => t.close());

async function list(path: string, token: string | undefined = t.world.tokens.providerOwner) {
  const res = await t.http("GET", path, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}
const namesOf = async (path: string, token?: string) => ((await list(path, token)).body as Array<{ uuid: string }>).map((m) => names[m.uuid]);

describe("REST fields", () => {
  it("every announcement answers overrun_minutes, start_delta_minutes and timing_bucket", async () => {
    const body = (await list("/api/maintenance-announcements/")).body as Array<Record<string, unknown>>;
    const timing = Object.fromEntries(
      body.map((m) => [names[m.uuid as string], [m.start_delta_minutes, m.overrun_minutes, m.timing_bucket]]),
    );
    expect(timing).toEqual({
      pending: [null, null, "pending"],
      onTime: [15, 15, "on_time"],
      late: [16, null, "late_start"],
      early: [-16, -30, "early"],
      overrun: [20, 16, "overrun"],
      published: [null, null, "pending"],
    });
  });
});

describe("timing_bucket", () => {
  const cases: Array<[string, string[]]> = [
    ["timing_bucket=late_start", ["late"]],
    ["timing_bucket=pending", ["published", "pending"]],
    ["timing_bucket=early,overrun", ["overrun", "early"]],
    ["timing_bucket=on_time, late_start", ["late", "onTime"]],
    ["timing_bucket=soon", []],
    ["timing_bucket=overrun,early&state=Completed&o=name", ["early", "overrun"]],
  ];
  for (const [query, expected] of cases) {
    it(query, async () => expect(await namesOf(`/api/maintenance-announcements/?${query.replace(" ", "%20")}`)).toEqual(expected));
  }

  it("the public list takes it over its own announcements", async () => {
    expect(await namesOf("/api/public-maintenance-announcements/?timing_bucket=pending", undefined)).toEqual(["published"]);
    expect(await namesOf("/api/public-maintenance-announcements/?timing_bucket=overrun", undefined)).toEqual(["overrun"]);
  });

  it("finds nothing the caller may not see", async () => {
    expect(await namesOf("/api/maintenance-announcements/?timing_bucket=late_start", t.world.tokens.unrelated)).toEqual([]);
  });
});

describe("ordering by the computed minutes", () => {
  const cases: Array<[string, string[]]> = [
    // PostgreSQL's (and Django's) null placement: last ascending, first descending; ties by -created.
    ["o=start_delta_minutes", ["early", "onTime", "late", "overrun", "published", "pending"]],
    ["o=-start_delta_minutes", ["published", "pending", "overrun", "late", "onTime", "early"]],
    ["o=overrun_minutes", ["early", "onTime", "overrun", "published", "late", "pending"]],
    ["o=-overrun_minutes,name", ["late", "pending", "published", "overrun", "onTime", "early"]],
    ["o=name,-start_delta_minutes", ["early", "late", "onTime", "overrun", "pending", "published"]],
    ["o=start_delta_minutes&timing_bucket=pending,early", ["early", "published", "pending"]],
    ["o=start_delta_minutes&state=Completed", ["early", "onTime", "overrun"]],
  ];
  for (const [query, expected] of cases) {
    it(query, async () => expect(await namesOf(`/api/maintenance-announcements/?${query}`)).toEqual(expected));
  }

  it("pages through the sorted list with the whole count", async () => {
    const res = await list("/api/maintenance-announcements/?o=start_delta_minutes&page_size=2&page=2");
    expect((res.body as Array<{ uuid: string }>).map((m) => names[m.uuid])).toEqual(["late", "overrun"]);
    expect(res.headers.get("x-result-count")).toBe("6");
    const beyond = await t.http("GET", "/api/maintenance-announcements/?o=start_delta_minutes&page_size=2&page=4", { token: t.world.tokens.providerOwner });
    expect(beyond.status).toBe(404);
  });

  it("the public list orders by them too", async () => {
    expect(await namesOf("/api/public-maintenance-announcements/?o=-overrun_minutes", undefined)).toEqual(["published", "late", "overrun", "onTime", "early"]);
  });

  it("sees only what the caller may see", async () => {
    expect(await namesOf("/api/maintenance-announcements/?o=overrun_minutes", t.world.tokens.unrelated)).toEqual([]);
  });
});

describe("GraphQL", () => {
  it("filters by timingBucket and orders by START_DELTA_MINUTES", async () => {
    const res = await t.gql(
      `query($filter: MaintenanceAnnouncementFilter) {
        maintenanceAnnouncements(filter: $filter, orderBy: [START_DELTA_MINUTES_DESC]) {
          totalCount nodes { name startDeltaMinutes overrunMinutes timingBucket } } }`,
      { filter: { timingBucket: "late_start,overrun,early" } },
      t.world.tokens.providerOwner,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.maintenanceAnnouncements).toEqual({
      totalCount: 3,
      nodes: [
        { name: "overrun", startDeltaMinutes: 20, overrunMinutes: 16, timingBucket: "OVERRUN" },
        { name: "late", startDeltaMinutes: 16, overrunMinutes: null, timingBucket: "LATE_START" },
        { name: "early", startDeltaMinutes: -16, overrunMinutes: -30, timingBucket: "EARLY" },
      ],
    });
  });
});
