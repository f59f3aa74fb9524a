import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { globalId } from "../../test/support/global-ids.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const UNKNOWN = globalId("OfferingTermsOfService", "0".repeat(32));
const owner = () => t.world.tokens.providerOwner;

const CREATE = `mutation($input: CreateTermsOfServiceInput!) {
  createOfferingTermsOfService(input: $input) { ... on OfferingTermsOfService { uuid version } ${failuresOf("createOfferingTermsOfService")} } }`;
const UPDATE = `mutation($input: TermsOfServiceInput!) {
  updateOfferingTermsOfService(input: $input) { ... on OfferingTermsOfService { uuid gracePeriodDays } ${failuresOf("updateOfferingTermsOfService")} } }`;
const create = async (input: Record<string, unknown>, token = owner()) => (await t.gql(CREATE, { input }, token)).data.createOfferingTermsOfService;
const update = async (input: Record<string, unknown>, token = owner()) => (await t.gql(UPDATE, { input }, token)).data.updateOfferingTermsOfService;

async function freshOffering(name: string) {
  const offering = await t.app.deps.db.offering.create({ data: { customerId: t.world.provider.id, name, type: "Marketplace.Slurm", state: "ACTIVE" } });
  return offering.id.replaceAll("-", "");
}

describe("terms-of-service mutations answer refusals as typed failures", () => {
  it("terms that do not exist are a NotFoundError", async () => {
    expect(await update({ id: UNKNOWN, gracePeriodDays: 1 })).toEqual({ __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." });
  });

  it("a consumer writing terms, and support revoking another's consent, are PermissionDeniedErrors", async () => {
    const offeringUuid = await freshOffering("Denied");
    expect(await create({ offeringUuid, version: "1" }, t.world.tokens.projectMember)).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
    expect(await create({ offeringUuid, version: "1", isActive: true })).toMatchObject({ version: "1" });
    const granted = await t.gql(
      `mutation($o: ID!) { grantOfferingConsent(input: { offeringUuid: $o }) { ... on UserOfferingConsent { uuid } ${failuresOf("grantOfferingConsent")} } }`,
      { o: offeringUuid },
      t.world.tokens.projectMember,
    );
    const revoked = await t.gql(
      `mutation($id: ID!) { revokeOfferingConsent(input: { id: $id }) { ... on UserOfferingConsent { uuid } ${failuresOf("revokeOfferingConsent")} } }`,
      { id: globalId("UserOfferingConsent", granted.data.grantOfferingConsent.uuid) },
      t.world.tokens.support,
    );
    expect(revoked.data.revokeOfferingConsent).toEqual({
      __typename: "PermissionDeniedError",
      code: "FORBIDDEN",
      message: "You don't have permission to revoke this consent.",
    });
  });

  it("invalid input is a ValidationError naming the input's fields", async () => {
    const terms = await create({ offeringUuid: await freshOffering("Invalid"), version: "1" });
    const negative = await update({ id: globalId("OfferingTermsOfService", terms.uuid), gracePeriodDays: -1 });
    expect(negative).toMatchObject({ __typename: "ValidationError", code: "VALIDATION", message: "Ensure this value is greater than or equal to 0." });
    expect(fieldsOf(negative)).toEqual({ gracePeriodDays: ["Ensure this value is greater than or equal to 0."] });
    expect(Object.keys(fieldsOf(await update({ id: globalId("OfferingTermsOfService", terms.uuid), termsOfServiceLink: "not a url" })))).toEqual(["termsOfServiceLink"]);
  });

  it("a second mutation that fails leaves the first's result in place", async () => {
    const offeringUuid = await freshOffering("Two");
    const result = await t.gql(
      `mutation($o: ID!, $id: ID!) {
        created: createOfferingTermsOfService(input: { offeringUuid: $o, version: "first-of-two" }) { ... on OfferingTermsOfService { version } ${failuresOf("createOfferingTermsOfService")} }
        refused: updateOfferingTermsOfService(input: { id: $id, gracePeriodDays: 1 }) { ... on OfferingTermsOfService { version } ${failuresOf("updateOfferingTermsOfService")} }
      }`,
      { o: offeringUuid, id: UNKNOWN },
      owner(),
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.created).toEqual({ version: "first-of-two" });
    expect(result.data.refused).toMatchObject({ __typename: "NotFoundError" });
    expect(await t.app.deps.db.offeringTermsOfService.count({ where: { version: "first-of-two" } })).toBe(1);
  });
});
