import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { makeResource } from "../../test/support/order-fixtures.ts";
import type { Persona } from "../../test/support/world.ts";

/** The resource mutations' refusals, as typed results in `data` rather than entries of `errors`. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const SET_AS_OK = `mutation($id: ID!) { setResourceAsOk(input: { id: $id }) { ... on ResourceStateResult { state } ${failuresOf("setResourceAsOk")} } }`;
const run = async (document: string, variables: Record<string, unknown>, persona: Persona = "providerOwner") => {
  const result = await t.gql(document, variables, t.world.tokens[persona]);
  expect(result.errors).toBeUndefined();
  return result.data;
};
const stateOf = async (id: string) => (await t.app.deps.db.resource.findUniqueOrThrow({ where: { id } })).state;

describe("typed failures of resource mutations", () => {
  it("a resource outside the provider view is a NotFoundError", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "ERRED");
    const notFound = { __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." };
    const data = await run(SET_AS_OK, { id: globalId("Resource", resource.uuid) }, "projectAdmin");
    expect(data.setResourceAsOk).toEqual(notFound);
    for (const id of [globalId("Resource", "0".repeat(32)), globalId("Offering", t.world.offering.uuid), "nope"]) {
      expect((await run(SET_AS_OK, { id })).setResourceAsOk).toEqual(notFound);
    }
    expect(await stateOf(resource.id)).toBe("ERRED");
  });

  it("a provider role without the right is a PermissionDeniedError", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "ERRED");
    const data = await run(SET_AS_OK, { id: globalId("Resource", resource.uuid) }, "providerSupport");
    expect(data.setResourceAsOk).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
    expect(await stateOf(resource.id)).toBe("ERRED");
  });

  it("a refused value is a ValidationError naming the input field", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const data = await run(
      `mutation($id: ID!, $m: JSON!) { setResourceBackendMetadata(input: { id: $id, backendMetadata: $m }) { ${failuresOf("setResourceBackendMetadata")} } }`,
      { id: globalId("Resource", resource.uuid), m: [1] },
    );
    expect(data.setResourceBackendMetadata).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(data.setResourceBackendMetadata)).toEqual({ backendMetadata: ["Expected a dictionary of items."] });
  });

  it("a state the action does not leave is an InvalidTransitionError with the current and allowed states", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "TERMINATED");
    const data = await run(SET_AS_OK, { id: globalId("Resource", resource.uuid) });
    expect(data.setResourceAsOk).toEqual({
      __typename: "ResourceTransitionError",
      code: "CONFLICT",
      message: "Valid states for operation: Creating, Updating, Terminating, Erred.",
      currentState: "TERMINATED",
      allowedFrom: ["CREATING", "UPDATING", "TERMINATING", "ERRED"],
    });
  });

  it("membership sync on an offering that has not opted in is a ConflictError", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const data = await run(
      `mutation($id: ID!) { setResourceMembershipSyncStatuses(input: { id: $id, statuses: [] }) { ... on MemberSyncReport { stored } ${failuresOf("setResourceMembershipSyncStatuses")} } }`,
      { id: globalId("Resource", resource.uuid) },
    );
    expect(data.setResourceMembershipSyncStatuses).toEqual({
      __typename: "ConflictError",
      code: "CONFLICT",
      message: "Membership sync status is not enabled for this offering.",
    });
  });

  it("a failing second mutation keeps the first one's result", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const data = await run(
      `mutation($id: ID!) {
        first: setResourceBackendId(input: { id: $id, backendId: "slurm-1" }) { ... on ResourceBackendResult { changed resource { backendId project { name } } } ${failuresOf("setResourceBackendId")} }
        second: setResourceAsOk(input: { id: $id }) { ... on ResourceStateResult { state } ${failuresOf("setResourceAsOk")} }
      }`,
      { id: globalId("Resource", resource.uuid) },
    );
    const project = await t.app.deps.db.project.findUniqueOrThrow({ where: { id: t.world.project.id } });
    expect(data.first).toEqual({ changed: true, resource: { backendId: "slurm-1", project: { name: project.name } } });
    expect(data.second).toMatchObject({ __typename: "ResourceTransitionError", currentState: "OK" });
    expect((await t.app.deps.db.resource.findUniqueOrThrow({ where: { id: resource.id } })).backendId).toBe("slurm-1");
  });
});
