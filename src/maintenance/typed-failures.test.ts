import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { END, seedMaintenance, START } from "../../test/support/maintenance-fixtures.ts";
import { toHex } from "../platform/ids.ts";

/** The mutations of maintenance and system announcements answer refusals as typed results, not errors. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const NOBODY = "0123456789ab4def8123456789abcdef";
const ACT = (mutation: string) =>
  `mutation($id: ID!) { ${mutation}(input: { id: $id }) { ... on MaintenanceAnnouncement { uuid state } ${failuresOf(mutation)} } }`;

describe("typed failures of maintenance mutations", () => {
  it("NotFoundError: an announcement or link that does not exist, or that the caller may not see", async () => {
    const owner = t.world.tokens.providerOwner;
    const missing = await t.gql(ACT("startMaintenance"), { id: globalId("MaintenanceAnnouncement", NOBODY) }, owner);
    expect(missing.errors).toBeUndefined();
    expect(missing.data.startMaintenance).toEqual({ __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." });
    const malformed = await t.gql(ACT("startMaintenance"), { id: "nope" }, owner);
    expect(malformed.data.startMaintenance).toEqual({ __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." });
    const hidden = await seedMaintenance(t);
    expect((await t.gql(ACT("scheduleMaintenance"), { id: globalId("MaintenanceAnnouncement", hidden.uuid) }, t.world.tokens.unrelated)).data.scheduleMaintenance.__typename).toBe("NotFoundError");
    const otherType = await t.gql(ACT("scheduleMaintenance"), { id: globalId("Offering", t.world.offering.uuid) }, owner);
    expect(otherType.data.scheduleMaintenance).toEqual({ __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." });
    const LINK = `mutation($input: UpdateMaintenanceAnnouncementOfferingInput!) { updateMaintenanceAnnouncementOffering(input: $input) { ${failuresOf("updateMaintenanceAnnouncementOffering")} } }`;
    const link = await t.gql(LINK, { input: { id: globalId("MaintenanceAnnouncementOffering", NOBODY), impactLevel: "FULL_OUTAGE" } }, owner);
    expect(link.data.updateMaintenanceAnnouncementOffering.__typename).toBe("NotFoundError");
    const announcementAsLink = await t.gql(LINK, { input: { id: globalId("MaintenanceAnnouncement", hidden.uuid), impactLevel: "FULL_OUTAGE" } }, owner);
    expect(announcementAsLink.data.updateMaintenanceAnnouncementOffering.__typename).toBe("NotFoundError");
    const stored = await t.app.deps.db.maintenanceAnnouncement.findUniqueOrThrow({ where: { id: hidden.id }, select: { state: true } });
    expect(stored.state).toBe("DRAFT");
  });

  it("PermissionDeniedError: support reads but may not change; only staff write system announcements", async () => {
    const m = await seedMaintenance(t);
    const update = await t.gql(
      `mutation($input: UpdateMaintenanceAnnouncementInput!) { updateMaintenanceAnnouncement(input: $input) { ${failuresOf("updateMaintenanceAnnouncement")} } }`,
      { input: { id: globalId("MaintenanceAnnouncement", m.uuid), maintenanceType: "SECURITY" } },
      t.world.tokens.support,
    );
    expect(update.data.updateMaintenanceAnnouncement).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
    const announcement = await t.app.deps.db.adminAnnouncement.create({
      data: { description: "Notice", activeFrom: new Date(START), activeTo: new Date(END) },
    });
    const edit = await t.gql(
      `mutation($input: UpdateAdminAnnouncementInput!) { updateAdminAnnouncement(input: $input) { ${failuresOf("updateAdminAnnouncement")} } }`,
      { input: { id: globalId("AdminAnnouncement", toHex(announcement.id)), description: "Changed" } },
      t.world.tokens.providerOwner,
    );
    expect(edit.data.updateAdminAnnouncement).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
  });

  it("ValidationError: fields named as the input names them", async () => {
    const created = await t.gql(
      `mutation($input: CreateMaintenanceAnnouncementInput!) { createMaintenanceAnnouncement(input: $input) { ${failuresOf("createMaintenanceAnnouncement")} } }`,
      { input: { name: "Backwards", scheduledStart: END, scheduledEnd: START, serviceProviderUuid: t.world.serviceProvider.uuid } },
      t.world.tokens.providerOwner,
    );
    expect(created.data.createMaintenanceAnnouncement).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(created.data.createMaintenanceAnnouncement)).toEqual({ scheduledEnd: ["Scheduled end must be after scheduled start."] });
  });

  it("InvalidTransitionError: the current state and the states the action is allowed from, with the REST message", async () => {
    const m = await seedMaintenance(t, "SCHEDULED");
    const again = await t.gql(ACT("scheduleMaintenance"), { id: globalId("MaintenanceAnnouncement", m.uuid) }, t.world.tokens.providerOwner);
    expect(again.data.scheduleMaintenance).toEqual({
      __typename: "MaintenanceTransitionError",
      code: "CONFLICT",
      message: "Valid states for operation: Draft.",
      currentState: "SCHEDULED",
      allowedFrom: ["DRAFT"],
    });
    const rest = await t.http("POST", `/api/maintenance-announcements/${m.uuid}/schedule/`, { token: t.world.tokens.providerOwner });
    expect(rest.status).toBe(409);
    expect(rest.body).toEqual({ detail: "Valid states for operation: Draft." });
  });

  it("a second mutation that fails leaves the first's result in place", async () => {
    const m = await seedMaintenance(t);
    const both = await t.gql(
      `mutation($id: ID!) {
        schedule: scheduleMaintenance(input: { id: $id }) { ... on MaintenanceAnnouncement { uuid state } ${failuresOf("scheduleMaintenance")} }
        complete: completeMaintenance(input: { id: $id }) { ... on MaintenanceAnnouncement { uuid state } ${failuresOf("completeMaintenance")} } }`,
      { id: globalId("MaintenanceAnnouncement", m.uuid) },
      t.world.tokens.providerOwner,
    );
    expect(both.errors).toBeUndefined();
    expect(both.data.schedule).toEqual({ uuid: m.uuid, state: "SCHEDULED" });
    expect(both.data.complete).toMatchObject({ __typename: "MaintenanceTransitionError", currentState: "SCHEDULED", allowedFrom: ["IN_PROGRESS"] });
    const stored = await t.app.deps.db.maintenanceAnnouncement.findUniqueOrThrow({ where: { id: m.id }, select: { state: true } });
    expect(stored.state).toBe("SCHEDULED");
  });
});
