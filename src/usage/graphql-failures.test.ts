import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { makeResource } from "../../test/support/order-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const owner = () => t.world.tokens.providerOwner;
const UNKNOWN = "0".repeat(32);

const SET_USAGE = `mutation($r: ID, $usages: [UsageReportInput!]!) {
  setComponentUsage(input: { resourceUuid: $r, usages: $usages }) {
    ... on SetComponentUsagePayload { componentUsages { uuid type usage resource { uuid } } } ${failuresOf("setComponentUsage")} } }`;
const SET_USER_USAGES = `mutation($u: ID!, $usages: [UserUsageReportInput!]!) {
  setComponentUserUsages(input: { componentUsageUuid: $u, usages: $usages }) {
    ... on SetComponentUserUsagesPayload { componentUserUsages { username usage componentUsage { uuid } } } ${failuresOf("setComponentUserUsages")} } }`;

const setUsage = async (variables: Record<string, unknown>, token = owner()) => (await t.gql(SET_USAGE, variables, token)).data.setComponentUsage;

describe("usage reports over GraphQL return what they recorded", () => {
  it("setComponentUsage returns the component usages, setComponentUserUsages the user usages", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const reported = await setUsage({ r: resource.uuid, usages: [{ type: "cpu", amount: "2.5" }] });
    expect(reported).toEqual({ componentUsages: [{ uuid: expect.any(String), type: "cpu", usage: 2.5, resource: { uuid: resource.uuid } }] });
    const usage = reported.componentUsages[0].uuid;
    const users = await t.gql(SET_USER_USAGES, { u: usage, usages: [{ username: "bob", usage: "1" }, { username: "alice", usage: "1.5" }] }, owner());
    expect(users.data.setComponentUserUsages).toEqual({
      componentUserUsages: [
        { username: "bob", usage: 1, componentUsage: { uuid: usage } },
        { username: "alice", usage: 1.5, componentUsage: { uuid: usage } },
      ],
    });
  });
});

describe("usage mutations answer refusals as typed failures", () => {
  it("a component usage or limit that does not exist is a NotFoundError", async () => {
    const users = await t.gql(SET_USER_USAGES, { u: UNKNOWN, usages: [{ username: "x", usage: "1" }] }, owner());
    expect(users.data.setComponentUserUsages).toEqual({ __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." });
    const limit = await t.gql(
      `mutation($id: ID!) { updateComponentUserUsageLimit(input: { id: $id, limit: "1" }) { ... on ComponentUserUsageLimit { limit } ${failuresOf("updateComponentUserUsageLimit")} } }`,
      { id: globalId("ComponentUserUsageLimit", UNKNOWN) },
      owner(),
    );
    expect(limit.data.updateComponentUserUsageLimit).toMatchObject({ __typename: "NotFoundError", code: "NOT_FOUND" });
  });

  it("a consumer reporting usage is a PermissionDeniedError", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    expect(await setUsage({ r: resource.uuid, usages: [{ type: "cpu", amount: "1" }] }, t.world.tokens.projectAdmin)).toMatchObject({
      __typename: "PermissionDeniedError",
      code: "FORBIDDEN",
    });
  });

  it("invalid input is a ValidationError naming the input's fields", async () => {
    const erred = await makeResource(t.app.deps.db, t.world, "ERRED");
    const failure = await setUsage({ r: erred.uuid, usages: [{ type: "cpu", amount: "1" }] });
    expect(failure).toEqual({
      __typename: "ValidationError",
      code: "VALIDATION",
      message: "Resource is not in valid state.",
      fields: [{ path: "resourceUuid", message: "Resource is not in valid state." }],
    });
    expect(fieldsOf(await setUsage({ usages: [{ type: "cpu", amount: "1" }] }))).toEqual({ input: ["Either plan_period or resource should be provided."] });
  });

  it("a second mutation that fails leaves the first's result in place", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const result = await t.gql(
      `mutation($r: ID!, $u: ID!) {
        reported: setComponentUsage(input: { resourceUuid: $r, usages: [{ type: "cpu", amount: "3" }] }) {
          ... on SetComponentUsagePayload { componentUsages { usage } } ${failuresOf("setComponentUsage")} }
        refused: setComponentUserUsages(input: { componentUsageUuid: $u, usages: [{ username: "x", usage: "1" }] }) {
          ... on SetComponentUserUsagesPayload { componentUserUsages { uuid } } ${failuresOf("setComponentUserUsages")} }
      }`,
      { r: resource.uuid, u: UNKNOWN },
      owner(),
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.reported).toEqual({ componentUsages: [{ usage: 3 }] });
    expect(result.data.refused).toMatchObject({ __typename: "NotFoundError" });
    expect(await t.app.deps.db.componentUsage.count({ where: { resourceId: resource.id } })).toBe(1);
  });
});
