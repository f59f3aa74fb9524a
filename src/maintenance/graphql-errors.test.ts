import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { END, seedMaintenance, START } from "../../test/support/maintenance-fixtures.ts";

/** GraphQL clients get field errors under the names of the input's own fields, and whole-input errors under `input`. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const CREATE = `mutation($input: CreateMaintenanceAnnouncementInput!) { createMaintenanceAnnouncement(input: $input) { uuid } }`;
const UPDATE = `mutation($uuid: ID!, $input: UpdateMaintenanceAnnouncementInput!) { updateMaintenanceAnnouncement(uuid: $uuid, input: $input) { uuid } }`;
const LINK = `mutation($input: CreateMaintenanceAnnouncementOfferingInput!) { createMaintenanceAnnouncementOffering(input: $input) { uuid } }`;

const fieldsOf = (result: { errors?: Array<{ extensions?: Record<string, unknown> }> }) => result.errors?.[0].extensions?.fields;

describe("GraphQL maintenance field errors", () => {
  it("an announcement's invalid fields are named as the input names them, all together", async () => {
    const input = {
      name: " ",
      internalNotes: "n".repeat(2001),
      maintenanceType: 9,
      externalReferenceUrl: "not a url",
      scheduledStart: START,
      scheduledEnd: END,
      serviceProviderUuid: "nope",
    };
    const created = await t.gql(CREATE, { input }, t.world.tokens.providerOwner);
    expect(fieldsOf(created)).toEqual({
      name: ["This field may not be blank."],
      internalNotes: ["Ensure this field has no more than 2000 characters."],
      maintenanceType: ['"9" is not a valid choice.'],
      externalReferenceUrl: ["Enter a valid URL."],
      serviceProviderUuid: ["Object does not exist."],
    });
  });

  it("a null field and an end before the start are errors of those fields", async () => {
    const m = await seedMaintenance(t);
    const token = t.world.tokens.providerOwner;
    expect(fieldsOf(await t.gql(UPDATE, { uuid: m.uuid, input: { scheduledStart: null } }, token))).toEqual({
      scheduledStart: ["This field may not be null."],
    });
    expect(fieldsOf(await t.gql(UPDATE, { uuid: m.uuid, input: { scheduledEnd: START } }, token))).toEqual({
      scheduledEnd: ["Scheduled end must be after scheduled start."],
    });
  });

  it("a link: unknown references name their uuid fields; a duplicate is an error of the whole input", async () => {
    const m = await seedMaintenance(t);
    const token = t.world.tokens.providerOwner;
    const unknownOffering = await t.gql(LINK, { input: { maintenanceUuid: m.uuid, offeringUuid: "0".repeat(32) } }, token);
    expect(fieldsOf(unknownOffering)).toEqual({ offeringUuid: ["Object does not exist."] });
    const badLevel = await t.gql(LINK, { input: { maintenanceUuid: m.uuid, offeringUuid: t.world.offering.uuid, impactLevel: 7 } }, token);
    expect(fieldsOf(badLevel)).toEqual({ impactLevel: ['"7" is not a valid choice.'] });
    const input = { maintenanceUuid: m.uuid, offeringUuid: t.world.offering.uuid };
    expect((await t.gql(LINK, { input }, token)).errors).toBeUndefined();
    const duplicate = await t.gql(LINK, { input }, token);
    expect(duplicate.errors?.[0].extensions).toEqual({ code: "VALIDATION", fields: { input: ["The fields maintenance, offering must make a unique set."] } });
  });

  it("an admin announcement's window ending before it starts is an error of activeTo", async () => {
    const created = await t.gql(
      `mutation($input: CreateAdminAnnouncementInput!) { createAdminAnnouncement(input: $input) { uuid } }`,
      { input: { description: "Backwards", activeFrom: END, activeTo: START } },
      t.world.tokens.staff,
    );
    expect(fieldsOf(created)).toEqual({ activeTo: ["Active to must not be before active from."] });
  });
});
