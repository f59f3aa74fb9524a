import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { END, seedMaintenance, START } from "../../test/support/maintenance-fixtures.ts";

/** GraphQL clients get field errors under the names of the input's own fields, and whole-input errors under `input`. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const CREATE = `mutation($input: CreateMaintenanceAnnouncementInput!) { createMaintenanceAnnouncement(input: $input) { ${failuresOf("createMaintenanceAnnouncement")} } }`;
const UPDATE = `mutation($input: UpdateMaintenanceAnnouncementInput!) { updateMaintenanceAnnouncement(input: $input) { ${failuresOf("updateMaintenanceAnnouncement")} } }`;
const LINK = `mutation($input: CreateMaintenanceAnnouncementOfferingInput!) {
  createMaintenanceAnnouncementOffering(input: $input) { ... on MaintenanceAnnouncementOffering { uuid } ${failuresOf("createMaintenanceAnnouncementOffering")} } }`;

type Result = { data?: Record<string, { __typename: string; fields?: Array<{ path: string; message: string }> }> };
/** The field errors of the one mutation a result answers, `{ path: [messages] }`. */
const failedFields = (result: Result) => {
  const [failure] = Object.values(result.data ?? {});
  expect(failure.__typename).toBe("ValidationError");
  return fieldsOf(failure);
};

describe("GraphQL maintenance field errors", () => {
  it("an announcement's invalid fields are named as the input names them, all together", async () => {
    const input = {
      name: " ",
      internalNotes: "n".repeat(2001),
      externalReferenceUrl: "not a url",
      scheduledStart: START,
      scheduledEnd: END,
      serviceProviderUuid: "nope",
    };
    const created = await t.gql(CREATE, { input }, t.world.tokens.providerOwner);
    expect(failedFields(created)).toEqual({
      name: ["This field may not be blank."],
      internalNotes: ["Ensure this field has no more than 2000 characters."],
      externalReferenceUrl: ["Enter a valid URL."],
      serviceProviderUuid: ["Object does not exist."],
    });
  });

  it("a type or impact level that is no enum value is refused by GraphQL itself", async () => {
    const m = await seedMaintenance(t);
    const token = t.world.tokens.providerOwner;
    const type = await t.gql(UPDATE, { input: { id: globalId("MaintenanceAnnouncement", m.uuid), maintenanceType: 2 } }, token);
    expect(type.data).toBeUndefined();
    expect(type.errors?.[0].message).toContain("MaintenanceType");
    const level = await t.gql(LINK, { input: { maintenanceUuid: m.uuid, offeringUuid: t.world.offering.uuid, impactLevel: "SEVERE" } }, token);
    expect(level.errors?.[0].message).toContain("ImpactLevel");
  });

  it("a null field and an end before the start are errors of those fields", async () => {
    const m = await seedMaintenance(t);
    const token = t.world.tokens.providerOwner;
    expect(failedFields(await t.gql(UPDATE, { input: { id: globalId("MaintenanceAnnouncement", m.uuid), scheduledStart: null } }, token))).toEqual({
      scheduledStart: ["This field may not be null."],
    });
    expect(failedFields(await t.gql(UPDATE, { input: { id: globalId("MaintenanceAnnouncement", m.uuid), maintenanceType: null } }, token))).toEqual({
      maintenanceType: ["This field may not be null."],
    });
    expect(failedFields(await t.gql(UPDATE, { input: { id: globalId("MaintenanceAnnouncement", m.uuid), scheduledEnd: START } }, token))).toEqual({
      scheduledEnd: ["Scheduled end must be after scheduled start."],
    });
  });

  it("a link: unknown references name their uuid fields; a duplicate is an error of the whole input", async () => {
    const m = await seedMaintenance(t);
    const token = t.world.tokens.providerOwner;
    const unknownOffering = await t.gql(LINK, { input: { maintenanceUuid: m.uuid, offeringUuid: "0".repeat(32) } }, token);
    expect(failedFields(unknownOffering)).toEqual({ offeringUuid: ["Object does not exist."] });
    const nullLevel = await t.gql(LINK, { input: { maintenanceUuid: m.uuid, offeringUuid: t.world.offering.uuid, impactLevel: null } }, token);
    expect(failedFields(nullLevel)).toEqual({ impactLevel: ["This field may not be null."] });
    const input = { maintenanceUuid: m.uuid, offeringUuid: t.world.offering.uuid };
    expect((await t.gql(LINK, { input }, token)).data?.createMaintenanceAnnouncementOffering.uuid).toEqual(expect.any(String));
    const duplicate = await t.gql(LINK, { input }, token);
    expect(duplicate.data?.createMaintenanceAnnouncementOffering).toEqual({
      __typename: "ValidationError",
      code: "VALIDATION",
      message: "The fields maintenance, offering must make a unique set.",
      fields: [{ path: "input", message: "The fields maintenance, offering must make a unique set." }],
    });
  });

  it("an admin announcement's window ending before it starts is an error of activeTo", async () => {
    const created = await t.gql(
      `mutation($input: CreateAdminAnnouncementInput!) { createAdminAnnouncement(input: $input) { ${failuresOf("createAdminAnnouncement")} } }`,
      { input: { description: "Backwards", activeFrom: END, activeTo: START } },
      t.world.tokens.staff,
    );
    expect(failedFields(created)).toEqual({ activeTo: ["Active to must not be before active from."] });
  });
});
