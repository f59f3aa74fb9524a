import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { seedMaintenance } from "../../test/support/maintenance-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ACTIONS = `query($uuid: ID!) { maintenanceAnnouncement(uuid: $uuid) { availableTransitions { operation mutation to permitted } } }`;

describe("MaintenanceAnnouncement.availableTransitions", () => {
  it("a draft can be scheduled or cancelled, by the provider's managers only", async () => {
    const m = await seedMaintenance(t, "DRAFT");
    const owner = await t.gql(ACTIONS, { uuid: m.uuid }, t.world.tokens.providerOwner);
    expect(owner.errors).toBeUndefined();
    expect(owner.data.maintenanceAnnouncement.availableTransitions).toEqual([
      { operation: "schedule", mutation: "scheduleMaintenance", to: "SCHEDULED", permitted: true },
      { operation: "cancel_maintenance", mutation: "cancelMaintenance", to: "CANCELLED", permitted: true },
    ]);
    const support = await t.gql(ACTIONS, { uuid: m.uuid }, t.world.tokens.support);
    expect(support.data.maintenanceAnnouncement.availableTransitions.every((a: { permitted: boolean }) => !a.permitted)).toBe(true);
  });

  it("a permitted action it lists succeeds, and the list follows the new state", async () => {
    const m = await seedMaintenance(t, "SCHEDULED");
    const before = await t.gql(ACTIONS, { uuid: m.uuid }, t.world.tokens.providerOwner);
    const start = before.data.maintenanceAnnouncement.availableTransitions.find((a: { operation: string }) => a.operation === "start_maintenance");
    const done = await t.gql(`mutation($id: ID!) { ${start.mutation}(input: { id: $id }) { ... on MaintenanceAnnouncement { state } } }`, { id: globalId("MaintenanceAnnouncement", m.uuid) }, t.world.tokens.providerOwner);
    expect(done.data[start.mutation]).toEqual({ state: "IN_PROGRESS" });
    const after = await t.gql(ACTIONS, { uuid: m.uuid }, t.world.tokens.providerOwner);
    expect(after.data.maintenanceAnnouncement.availableTransitions.map((a: { operation: string }) => a.operation)).toEqual(["complete_maintenance"]);
  });
});
