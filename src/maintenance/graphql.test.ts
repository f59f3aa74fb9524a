import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { END, seedMaintenance, START } from "../../test/support/maintenance-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const FIELDS = `uuid name state stateLabel maintenanceType maintenanceTypeDisplay actualStart internalNotes serviceProviderName
  affectedOfferings { uuid offeringName impactLevel impactLevelDisplay } adminAnnouncement { description type }`;

describe("GraphQL maintenance", () => {
  it("create, query with filters, act, link offerings and delete", async () => {
    const token = t.world.tokens.providerOwner;
    const created = await t.gql(
      `mutation($input: CreateMaintenanceAnnouncementInput!) { createMaintenanceAnnouncement(input: $input) { ${FIELDS} } }`,
      { input: { name: "GQL", message: "Via GraphQL", scheduledStart: START, scheduledEnd: END, serviceProviderUuid: t.world.serviceProvider.uuid, maintenanceType: 2 } },
      token,
    );
    expect(created.errors).toBeUndefined();
    const m = created.data.createMaintenanceAnnouncement;
    expect(m).toMatchObject({ state: "DRAFT", stateLabel: "Draft", maintenanceTypeDisplay: "Emergency maintenance", actualStart: null, adminAnnouncement: null });

    const listed = await t.gql(
      `query($filter: MaintenanceAnnouncementFilter) { maintenanceAnnouncements(filter: $filter, orderBy: [NAME_ASC]) { totalCount nodes { uuid } } }`,
      { filter: { state: ["DRAFT"], maintenanceType: 2, serviceProviderUuid: t.world.serviceProvider.uuid } },
      token,
    );
    expect(listed.data.maintenanceAnnouncements.nodes.map((n: { uuid: string }) => n.uuid)).toContain(m.uuid);

    const scheduled = await t.gql(`mutation($uuid: ID!) { scheduleMaintenance(uuid: $uuid) { ${FIELDS} } }`, { uuid: m.uuid }, token);
    expect(scheduled.data.scheduleMaintenance).toMatchObject({
      state: "SCHEDULED",
      adminAnnouncement: { description: "🚨 Emergency Maintenance: Via GraphQL", type: "DANGER" },
    });
    const again = await t.gql(`mutation($uuid: ID!) { scheduleMaintenance(uuid: $uuid) { uuid } }`, { uuid: m.uuid }, token);
    expect(again.errors?.[0]).toMatchObject({ message: "Valid states for operation: Draft.", extensions: { code: "CONFLICT" } });

    const link = await t.gql(
      `mutation($input: CreateMaintenanceAnnouncementOfferingInput!) { createMaintenanceAnnouncementOffering(input: $input) { uuid offeringName maintenanceUuid } }`,
      { input: { maintenanceUuid: m.uuid, offeringUuid: t.world.offering.uuid, impactLevel: 2 } },
      token,
    );
    expect(link.data.createMaintenanceAnnouncementOffering).toMatchObject({ offeringName: "HPC", maintenanceUuid: m.uuid });
    const links = await t.gql(
      `query($filter: MaintenanceAnnouncementOfferingFilter) { maintenanceAnnouncementOfferings(filter: $filter) { totalCount } }`,
      { filter: { maintenanceUuid: m.uuid } },
      token,
    );
    expect(links.data.maintenanceAnnouncementOfferings.totalCount).toBe(1);

    const updated = await t.gql(
      `mutation($uuid: ID!, $input: UpdateMaintenanceAnnouncementInput!) { updateMaintenanceAnnouncement(uuid: $uuid, input: $input) { ${FIELDS} } }`,
      { uuid: m.uuid, input: { message: "Changed", maintenanceType: 1 } },
      token,
    );
    expect(updated.data.updateMaintenanceAnnouncement.adminAnnouncement).toEqual({ description: "🔧 Scheduled Maintenance: Changed", type: "INFORMATION" });

    const deleted = await t.gql(`mutation($uuid: ID!) { deleteMaintenanceAnnouncement(uuid: $uuid) { uuid } }`, { uuid: m.uuid }, token);
    expect(deleted.data.deleteMaintenanceAnnouncement.uuid).toBe(m.uuid);
    const gone = await t.gql(`query($uuid: ID!) { maintenanceAnnouncement(uuid: $uuid) { uuid } }`, { uuid: m.uuid }, token);
    expect(gone.errors?.[0].extensions?.code).toBe("NOT_FOUND");
  });

  it("outsiders: NOT_FOUND on objects, VALIDATION on create; anonymous: UNAUTHENTICATED", async () => {
    const m = await seedMaintenance(t);
    const token = t.world.tokens.projectAdmin;
    const one = await t.gql(`query($uuid: ID!) { maintenanceAnnouncement(uuid: $uuid) { uuid } }`, { uuid: m.uuid }, token);
    expect(one.errors?.[0].extensions?.code).toBe("NOT_FOUND");
    const act = await t.gql(`mutation($uuid: ID!) { cancelMaintenance(uuid: $uuid) { uuid } }`, { uuid: m.uuid }, token);
    expect(act.errors?.[0].extensions?.code).toBe("NOT_FOUND");
    const create = await t.gql(
      `mutation($input: CreateMaintenanceAnnouncementInput!) { createMaintenanceAnnouncement(input: $input) { uuid } }`,
      { input: { name: "x", scheduledStart: START, scheduledEnd: END, serviceProviderUuid: t.world.serviceProvider.uuid } },
      token,
    );
    expect(create.errors?.[0].extensions).toMatchObject({ code: "VALIDATION", fields: { serviceProviderUuid: ["Object does not exist."] } });
    const anonymous = await t.gql(`{ maintenanceAnnouncements { totalCount } }`);
    expect(anonymous.errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("public queries work anonymously and expose no internal fields", async () => {
    const scheduled = await seedMaintenance(t, "SCHEDULED");
    const draft = await seedMaintenance(t, "DRAFT");
    const list = await t.gql(`{ publicMaintenanceAnnouncements(first: 100) { totalCount nodes { uuid stateLabel serviceProviderName affectedOfferings { uuid } } } }`);
    expect(list.errors).toBeUndefined();
    const uuids = list.data.publicMaintenanceAnnouncements.nodes.map((n: { uuid: string }) => n.uuid);
    expect(uuids).toContain(scheduled.uuid);
    expect(uuids).not.toContain(draft.uuid);
    const one = await t.gql(`query($uuid: ID!) { publicMaintenanceAnnouncement(uuid: $uuid) { uuid } }`, { uuid: draft.uuid });
    expect(one.errors?.[0].extensions?.code).toBe("NOT_FOUND");
    const internal = await t.gql(`query($uuid: ID!) { publicMaintenanceAnnouncement(uuid: $uuid) { internalNotes } }`, { uuid: scheduled.uuid });
    expect(internal.errors?.[0].message).toContain("Cannot query field");
  });

  it("admin announcements: read by any user, written by staff only", async () => {
    const input = { description: "GraphQL notice", activeFrom: START, activeTo: END, type: "WARNING" };
    const denied = await t.gql(
      `mutation($input: CreateAdminAnnouncementInput!) { createAdminAnnouncement(input: $input) { uuid } }`,
      { input },
      t.world.tokens.providerOwner,
    );
    expect(denied.errors?.[0].extensions?.code).toBe("FORBIDDEN");
    const created = await t.gql(
      `mutation($input: CreateAdminAnnouncementInput!) { createAdminAnnouncement(input: $input) { uuid type typeLabel maintenanceUuid } }`,
      { input },
      t.world.tokens.staff,
    );
    expect(created.data.createAdminAnnouncement).toMatchObject({ type: "WARNING", typeLabel: "warning", maintenanceUuid: null });
    const read = await t.gql(
      `query($filter: AdminAnnouncementFilter) { adminAnnouncements(filter: $filter) { totalCount nodes { description } } }`,
      { filter: { description: "graphql notice", type: ["WARNING"] } },
      t.world.tokens.unrelated,
    );
    expect(read.data.adminAnnouncements.nodes).toEqual([{ description: "GraphQL notice" }]);
  });
});
