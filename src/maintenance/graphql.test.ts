import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf } from "../../test/support/graphql-failures.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { END, seedMaintenance, START } from "../../test/support/maintenance-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const FIELDS = `... on MaintenanceAnnouncement { uuid name state maintenanceType
  actualStart internalNotes serviceProvider { customer { name } }
  affectedOfferings { uuid offeringName impactLevel }
  adminAnnouncement { description type maintenance { maintenanceType affectedOfferings { impactLevel } } } }`;
/** The announcement's fields and what `mutation` can fail with. */
const answer = (mutation: string) => `${FIELDS} ${failuresOf(mutation)}`;

describe("GraphQL maintenance", () => {
  it("create, query with filters, act, link offerings and delete", async () => {
    const token = t.world.tokens.providerOwner;
    const created = await t.gql(
      `mutation($input: CreateMaintenanceAnnouncementInput!) { createMaintenanceAnnouncement(input: $input) { ${answer("createMaintenanceAnnouncement")} } }`,
      { input: { name: "GQL", message: "Via GraphQL", scheduledStart: START, scheduledEnd: END, serviceProviderUuid: t.world.serviceProvider.uuid, maintenanceType: "EMERGENCY" } },
      token,
    );
    expect(created.errors).toBeUndefined();
    const m = created.data.createMaintenanceAnnouncement;
    expect(m).toMatchObject({
      state: "DRAFT",
      maintenanceType: "EMERGENCY",
      actualStart: null,
      serviceProvider: { customer: { name: "Provider Org" } },
      adminAnnouncement: null,
    });

    const listed = await t.gql(
      `query($filter: MaintenanceAnnouncementFilter) { maintenanceAnnouncements(filter: $filter, orderBy: [NAME_ASC]) { totalCount nodes { uuid } } }`,
      { filter: { state: ["DRAFT"], maintenanceType: ["EMERGENCY", "SECURITY"], serviceProviderUuid: t.world.serviceProvider.uuid } },
      token,
    );
    expect(listed.data.maintenanceAnnouncements.nodes.map((n: { uuid: string }) => n.uuid)).toContain(m.uuid);
    const otherType = await t.gql(
      `query($filter: MaintenanceAnnouncementFilter) { maintenanceAnnouncements(filter: $filter) { nodes { uuid } } }`,
      { filter: { maintenanceType: ["SCHEDULED"] } },
      token,
    );
    expect(otherType.data.maintenanceAnnouncements.nodes.map((n: { uuid: string }) => n.uuid)).not.toContain(m.uuid);

    const scheduled = await t.gql(`mutation($id: ID!) { scheduleMaintenance(input: { id: $id }) { ${answer("scheduleMaintenance")} } }`, { id: globalId("MaintenanceAnnouncement", m.uuid) }, token);
    expect(scheduled.data.scheduleMaintenance).toMatchObject({
      state: "SCHEDULED",
      adminAnnouncement: { description: "🚨 Emergency Maintenance: Via GraphQL", type: "DANGER", maintenance: { maintenanceType: "EMERGENCY" } },
    });

    const link = await t.gql(
      `mutation($input: CreateMaintenanceAnnouncementOfferingInput!) {
        createMaintenanceAnnouncementOffering(input: $input) { ... on MaintenanceAnnouncementOffering { uuid offeringName maintenanceUuid impactLevel } ${failuresOf("createMaintenanceAnnouncementOffering")} } }`,
      { input: { maintenanceUuid: m.uuid, offeringUuid: t.world.offering.uuid, impactLevel: "DEGRADED_PERFORMANCE" } },
      token,
    );
    expect(link.data.createMaintenanceAnnouncementOffering).toMatchObject({
      offeringName: "HPC",
      maintenanceUuid: m.uuid,
      impactLevel: "DEGRADED_PERFORMANCE",
    });
    const relinked = await t.gql(
      `mutation($input: UpdateMaintenanceAnnouncementOfferingInput!) {
        updateMaintenanceAnnouncementOffering(input: $input) { ... on MaintenanceAnnouncementOffering { impactLevel impactDescription } ${failuresOf("updateMaintenanceAnnouncementOffering")} } }`,
      { input: { id: globalId("MaintenanceAnnouncementOffering", link.data.createMaintenanceAnnouncementOffering.uuid), impactLevel: "FULL_OUTAGE", impactDescription: "Down" } },
      token,
    );
    expect(relinked.data.updateMaintenanceAnnouncementOffering).toEqual({ impactLevel: "FULL_OUTAGE", impactDescription: "Down" });
    const links = await t.gql(
      `query($filter: MaintenanceAnnouncementOfferingFilter) { maintenanceAnnouncementOfferings(filter: $filter) { totalCount } }`,
      { filter: { maintenanceUuid: m.uuid } },
      token,
    );
    expect(links.data.maintenanceAnnouncementOfferings.totalCount).toBe(1);

    const updated = await t.gql(
      `mutation($input: UpdateMaintenanceAnnouncementInput!) { updateMaintenanceAnnouncement(input: $input) { ${answer("updateMaintenanceAnnouncement")} } }`,
      { input: { id: globalId("MaintenanceAnnouncement", m.uuid), message: "Changed", maintenanceType: "SCHEDULED" } },
      token,
    );
    expect(updated.data.updateMaintenanceAnnouncement.adminAnnouncement).toEqual({
      description: "🔧 Scheduled Maintenance: Changed",
      type: "INFORMATION",
      maintenance: { maintenanceType: "SCHEDULED", affectedOfferings: [{ impactLevel: "FULL_OUTAGE" }] },
    });

    const deleted = await t.gql(
      `mutation($id: ID!) { deleteMaintenanceAnnouncement(input: { id: $id }) { ... on Deletion { uuid deletedId } ${failuresOf("deleteMaintenanceAnnouncement")} } }`,
      { id: globalId("MaintenanceAnnouncement", m.uuid) },
      token,
    );
    expect(deleted.data.deleteMaintenanceAnnouncement).toEqual({ uuid: m.uuid, deletedId: globalId("MaintenanceAnnouncement", m.uuid) });
    const gone = await t.gql(`query($uuid: ID!) { maintenanceAnnouncement(uuid: $uuid) { uuid } }`, { uuid: m.uuid }, token);
    expect(gone).toEqual({ data: { maintenanceAnnouncement: null } });
  });

  it("outsiders: null for objects they may not see, VALIDATION on create; anonymous: UNAUTHENTICATED", async () => {
    const m = await seedMaintenance(t);
    const token = t.world.tokens.projectAdmin;
    const one = await t.gql(`query($uuid: ID!) { maintenanceAnnouncement(uuid: $uuid) { uuid } }`, { uuid: m.uuid }, token);
    expect(one).toEqual({ data: { maintenanceAnnouncement: null } });
    const act = await t.gql(`mutation($id: ID!) { cancelMaintenance(input: { id: $id }) { ${failuresOf("cancelMaintenance")} } }`, { id: globalId("MaintenanceAnnouncement", m.uuid) }, token);
    expect(act.data.cancelMaintenance).toEqual({ __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." });
    const create = await t.gql(
      `mutation($input: CreateMaintenanceAnnouncementInput!) { createMaintenanceAnnouncement(input: $input) { ${failuresOf("createMaintenanceAnnouncement")} } }`,
      { input: { name: "x", scheduledStart: START, scheduledEnd: END, serviceProviderUuid: t.world.serviceProvider.uuid } },
      token,
    );
    expect(create.data.createMaintenanceAnnouncement).toMatchObject({
      __typename: "ValidationError",
      code: "VALIDATION",
      fields: [{ path: "serviceProviderUuid", message: "Object does not exist." }],
    });
    const anonymous = await t.gql(`{ maintenanceAnnouncements { totalCount } }`);
    expect(anonymous.errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("public queries work anonymously and expose no internal fields", async () => {
    const scheduled = await seedMaintenance(t, "SCHEDULED");
    const draft = await seedMaintenance(t, "DRAFT");
    const list = await t.gql(`{ publicMaintenanceAnnouncements(first: 100) { totalCount nodes { uuid state maintenanceType serviceProviderName affectedOfferings { uuid } } } }`);
    expect(list.errors).toBeUndefined();
    const uuids = list.data.publicMaintenanceAnnouncements.nodes.map((n: { uuid: string }) => n.uuid);
    expect(uuids).toContain(scheduled.uuid);
    expect(uuids).not.toContain(draft.uuid);
    const shown = list.data.publicMaintenanceAnnouncements.nodes.find((n: { uuid: string }) => n.uuid === scheduled.uuid);
    expect(shown).toMatchObject({ state: "SCHEDULED", maintenanceType: "SCHEDULED", serviceProviderName: "Provider Org" });
    const one = await t.gql(`query($uuid: ID!) { publicMaintenanceAnnouncement(uuid: $uuid) { uuid } }`, { uuid: draft.uuid });
    expect(one).toEqual({ data: { publicMaintenanceAnnouncement: null } });
    const internal = await t.gql(`query($uuid: ID!) { publicMaintenanceAnnouncement(uuid: $uuid) { internalNotes } }`, { uuid: scheduled.uuid });
    expect(internal.errors?.[0].message).toContain("Cannot query field");
  });

  it("admin announcements: read by any user, written by staff only", async () => {
    const input = { description: "GraphQL notice", activeFrom: START, activeTo: END, type: "WARNING" };
    const CREATE = `mutation($input: CreateAdminAnnouncementInput!) {
      createAdminAnnouncement(input: $input) { ... on AdminAnnouncement { uuid type maintenance { uuid } } ${failuresOf("createAdminAnnouncement")} } }`;
    const denied = await t.gql(CREATE, { input }, t.world.tokens.providerOwner);
    expect(denied.data.createAdminAnnouncement).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
    const created = await t.gql(CREATE, { input }, t.world.tokens.staff);
    expect(created.data.createAdminAnnouncement).toMatchObject({ type: "WARNING", maintenance: null });
    const updated = await t.gql(
      `mutation($input: UpdateAdminAnnouncementInput!) { updateAdminAnnouncement(input: $input) { ... on AdminAnnouncement { description type } ${failuresOf("updateAdminAnnouncement")} } }`,
      { input: { id: globalId("AdminAnnouncement", created.data.createAdminAnnouncement.uuid), type: "DANGER" } },
      t.world.tokens.staff,
    );
    expect(updated.data.updateAdminAnnouncement).toEqual({ description: "GraphQL notice", type: "DANGER" });
    const read = await t.gql(
      `query($filter: AdminAnnouncementFilter) { adminAnnouncements(filter: $filter) { totalCount nodes { description } } }`,
      { filter: { description: "graphql notice", type: ["DANGER"] } },
      t.world.tokens.unrelated,
    );
    expect(read.data.adminAnnouncements.nodes).toEqual([{ description: "GraphQL notice" }]);
  });
});
