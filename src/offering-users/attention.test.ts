import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { loadStuckSettings } from "../platform/settings/stuck-settings.ts";

let t: TestApp;
const HOUR = 3_600_000;

const LIST = `query List($filter: OfferingUserFilter, $orderBy: [OfferingUserOrder!]) {
  offeringUsers(filter: $filter, orderBy: $orderBy, first: 50) {
    nodes { uuid state stateChangedAt stuck stuckSince projects { name customer { name } } }
  }
}`;

async function list(filter: Record<string, unknown>, orderBy?: string[], token = t.world.tokens.providerOwner) {
  const answer = await t.gql(LIST, { filter, orderBy }, token);
  expect(answer.errors).toBeUndefined();
  return answer.data.offeringUsers.nodes as Array<{ uuid: string; state: string; stateChangedAt: string; stuck: boolean; stuckSince: string | null; projects: Array<{ name: string; customer: { name: string } }> }>;
}

/** An offering user in `state` since `hoursAgo` hours (the column a state change writes, set as if it had). */
async function heldFor(state: OfferingUserState, hoursAgo: number) {
  const record = await t.world.offeringUser(state);
  await t.app.deps.db.$executeRaw`UPDATE offering_users SET state_changed_at = ${new Date(Date.now() - hoursAgo * HOUR)} WHERE id = ${record.id}::uuid`;
  return record;
}

beforeAll(async () => {
  // Creating: 2 hours; Error creating: never; Pending additional validation: the default (3 days).
  t = await startTestApp({ offeringUserStuckAfterMinutes: { CREATING: 120, ERROR_CREATING: 0, PENDING_ADDITIONAL_VALIDATION: 4320 } });
});
afterAll(() => t.close());

describe("stuck offering users", () => {
  let stuckCreating: { uuid: string };
  let freshCreating: { uuid: string };
  let oldError: { uuid: string };
  let longValidation: { uuid: string };
  let oldRequested: { uuid: string };

  beforeAll(async () => {
    stuckCreating = await heldFor("CREATING", 3);
    freshCreating = await heldFor("CREATING", 1);
    oldError = await heldFor("ERROR_CREATING", 500);
    longValidation = await heldFor("PENDING_ADDITIONAL_VALIDATION", 73);
    oldRequested = await heldFor("CREATION_REQUESTED", 500);
  });

  it("marks a record held beyond its state's threshold, with the moment it became stuck", async () => {
    const byUuid = new Map((await list({})).map((node) => [node.uuid, node]));
    expect([stuckCreating, freshCreating, oldError, longValidation, oldRequested].map(({ uuid }) => byUuid.get(uuid)?.stuck)).toEqual([
      true,
      false,
      false,
      true,
      false,
    ]);
    const stuck = byUuid.get(stuckCreating.uuid)!;
    expect(Date.parse(stuck.stuckSince!) - Date.parse(stuck.stateChangedAt)).toBe(2 * HOUR);
    expect(byUuid.get(freshCreating.uuid)?.stuckSince).toBeNull();
  });

  it("filters by the same rule, server-side, over GraphQL and REST", async () => {
    const stuck = (await list({ stuck: true })).map((node) => node.uuid).sort();
    expect(stuck).toEqual([stuckCreating.uuid, longValidation.uuid].sort());
    const notStuck = (await list({ stuck: false })).map((node) => node.uuid);
    expect(notStuck).toContain(freshCreating.uuid);
    expect(notStuck).not.toContain(stuckCreating.uuid);
    const rest = await t.http("GET", "/api/marketplace-offering-users/?stuck=true", { token: t.world.tokens.providerOwner });
    expect(rest.status).toBe(200);
    expect(rest.body.map((row: { uuid: string }) => row.uuid).sort()).toEqual(stuck);
  });

  it("orders by the time a record entered its state", async () => {
    const oldestFirst = (await list({ state: ["CREATING"] }, ["STATE_CHANGED_ASC"])).map((node) => node.uuid);
    expect(oldestFirst.indexOf(stuckCreating.uuid)).toBeLessThan(oldestFirst.indexOf(freshCreating.uuid));
    const newestFirst = (await list({ state: ["CREATING"] }, ["STATE_CHANGED_DESC"])).map((node) => node.uuid);
    expect(newestFirst.indexOf(freshCreating.uuid)).toBeLessThan(newestFirst.indexOf(stuckCreating.uuid));
  });
});

describe("the time a record entered its state", () => {
  it("moves with a transition and stays with a change of comments", async () => {
    const record = await heldFor("CREATING", 5);
    const before = (await list({})).find((node) => node.uuid === record.uuid)!;
    expect(Date.now() - Date.parse(before.stateChangedAt)).toBeGreaterThan(4 * HOUR);

    const comment = await t.http("PATCH", `/api/marketplace-offering-users/${record.uuid}/update_comments/`, {
      token: t.world.tokens.providerOwner,
      body: { service_provider_comment: "Looking into it" },
    });
    expect(comment.status).toBe(200);
    expect((await list({})).find((node) => node.uuid === record.uuid)?.stateChangedAt).toBe(before.stateChangedAt);

    const moved = await t.http("POST", `/api/marketplace-offering-users/${record.uuid}/set_ok/`, { token: t.world.tokens.providerOwner, body: {} });
    expect(moved.status).toBe(200);
    const after = (await list({})).find((node) => node.uuid === record.uuid)!;
    expect(after.state).toBe("OK");
    expect(Date.now() - Date.parse(after.stateChangedAt)).toBeLessThan(HOUR);
  });
});

describe("projects and search", () => {
  it("names the projects whose allocations give the account, and their organisation", async () => {
    const record = await t.world.offeringUser("OK");
    expect((await list({})).find((node) => node.uuid === record.uuid)?.projects).toEqual([]);
    await t.app.deps.db.resource.create({ data: { projectId: t.world.project.id, offeringId: t.world.offering.id, state: "OK", name: "allocation" } });
    expect((await list({})).find((node) => node.uuid === record.uuid)?.projects).toEqual([{ name: "Project", customer: { name: "Consumer Org" } }]);
  });

  it("searches the user's email too", async () => {
    const record = await t.world.offeringUser("OK");
    await t.app.deps.db.user.update({ where: { id: record.userId }, data: { email: "someone.findable@example.org" } });
    expect((await list({ query: "FINDABLE@example" })).map((node) => node.uuid)).toEqual([record.uuid]);
  });
});

it("reads its thresholds from the environment, with documented defaults, and refuses what is not minutes", () => {
  expect(loadStuckSettings({}).offeringUserStuckAfterMinutes).toEqual({ CREATING: 60, ERROR_CREATING: 60, PENDING_ADDITIONAL_VALIDATION: 4320 });
  expect(loadStuckSettings({ OFFERING_USER_STUCK_CREATING_MINUTES: "0" }).offeringUserStuckAfterMinutes.CREATING).toBe(0);
  expect(() => loadStuckSettings({ OFFERING_USER_STUCK_ERROR_CREATING_MINUTES: "soon" })).toThrow(/OFFERING_USER_STUCK_ERROR_CREATING_MINUTES/);
});

describe("consent to the active terms", () => {
  it("lists who has not consented to the active version, and who has", async () => {
    const db = t.app.deps.db;
    const offering = await db.offering.create({ data: { customerId: t.world.provider.id, name: "Terms", type: "Marketplace.Slurm", state: "ACTIVE" } });
    const account = async (username: string, version?: string) => {
      const user = await db.user.create({ data: { username } });
      if (version) await db.userOfferingConsent.create({ data: { userId: user.id, offeringId: offering.id, version } });
      return (await db.offeringUser.create({ data: { offeringId: offering.id, userId: user.id } })).id;
    };
    // Version 2 asks for consent again, and the grace period for older consents is over.
    await db.offeringTermsOfService.create({ data: { offeringId: offering.id, version: "2", isActive: true, requiresReconsent: true, gracePeriodDays: 0 } });
    const [current, older, none] = [await account("terms-current", "2"), await account("terms-older", "1"), await account("terms-none")];
    const uuids = async (consented: boolean) =>
      (await list({ offeringUuid: [offering.id.replaceAll("-", "")], consentedToActiveTerms: consented }, undefined, t.world.tokens.staff)).map((node) => node.uuid).sort();
    const hex = (id: string) => id.replaceAll("-", "");
    expect(await uuids(true)).toEqual([hex(current)]);
    expect(await uuids(false)).toEqual([hex(older), hex(none)].sort());
  });
});
