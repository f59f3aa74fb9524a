import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { orderIn } from "../../test/support/order-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const APPROVE = `mutation($input: ApproveOrderByProviderInput!) { approveOrderByProvider(input: $input) { ... on OrderActionResult { state } ${failuresOf("approveOrderByProvider")} } }`;
const DONE = `mutation($id: ID!) { setOrderStateDone(input: { id: $id }) { ... on OrderActionResult { state } ${failuresOf("setOrderStateDone")} } }`;
const BACKEND_ID = `mutation($id: ID!, $backendId: String!) {
  setOrderBackendId(input: { id: $id, backendId: $backendId }) { ... on OrderBackendIdResult { changed order { backendId } } ${failuresOf("setOrderBackendId")} } }`;

describe("order mutations answer their failures as typed results", () => {
  it("an order the caller cannot see is a NotFoundError", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
    const id = globalId("Order", order.uuid);
    const cases: Array<[string, string]> = [
      [id, t.world.tokens.unrelated],
      [globalId("Order", "0".repeat(32)), t.world.tokens.staff],
      [globalId("Resource", order.resource.uuid), t.world.tokens.staff],
      ["nope", t.world.tokens.staff],
    ];
    for (const [given, token] of cases) {
      const result = await t.gql(APPROVE, { input: { id: given } }, token);
      expect(result.errors).toBeUndefined();
      expect(result.data.approveOrderByProvider).toEqual({ __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." });
    }
    expect((await t.app.deps.db.order.findUniqueOrThrow({ where: { id: order.id } })).state).toBe("PENDING_PROVIDER");
  });

  it("a consumer acting for the provider is a PermissionDeniedError", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "EXECUTING");
    const result = await t.gql(BACKEND_ID, { id: globalId("Order", order.uuid), backendId: "b-1" }, t.world.tokens.projectAdmin);
    expect(result.data.setOrderBackendId).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
    expect((await t.app.deps.db.order.findUniqueOrThrow({ where: { id: order.id } })).backendId).toBe("");
  });

  it("invalid input is a ValidationError naming the input fields in camelCase", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
    const long = await t.gql(BACKEND_ID, { id: globalId("Order", order.uuid), backendId: "x".repeat(256) }, t.world.tokens.providerOwner);
    expect(long.data.setOrderBackendId).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(long.data.setOrderBackendId)).toEqual({ backendId: ["Ensure this field has no more than 255 characters."] });

    const notADictionary = await t.gql(APPROVE, { input: { id: globalId("Order", order.uuid), attributes: [1] } }, t.world.tokens.providerOwner);
    expect(fieldsOf(notADictionary.data.approveOrderByProvider)).toEqual({ attributes: ["Expected a dictionary of items."] });

    const create = await t.gql(
      `mutation($input: CreateOrderInput!) { createOrder(input: $input) { ... on Order { uuid } ${failuresOf("createOrder")} } }`,
      { input: { offeringUuid: t.world.offering.uuid, projectUuid: t.world.project.uuid, requestComment: "x".repeat(256) } },
      t.world.tokens.projectAdmin,
    );
    expect(fieldsOf(create.data.createOrder)).toEqual({ requestComment: ["Ensure this field has no more than 255 characters."] });
    expect((await t.app.deps.db.order.findUniqueOrThrow({ where: { id: order.id } })).state).toBe("PENDING_PROVIDER");
  });

  it("an action from the wrong state is an InvalidTransitionError with the current state and the allowed ones", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
    const done = await t.gql(DONE, { id: globalId("Order", order.uuid) }, t.world.tokens.providerOwner);
    expect(done.data.setOrderStateDone).toEqual({
      __typename: "OrderTransitionError",
      code: "CONFLICT",
      message: "Valid states for operation: executing.",
      currentState: "PENDING_PROVIDER",
      allowedFrom: ["EXECUTING"],
    });

    const executing = await orderIn(t.app.deps.db, t.world, "EXECUTING");
    const deleted = await t.gql(
      `mutation($id: ID!) { deleteOrder(input: { id: $id }) { ... on Deletion { uuid } ${failuresOf("deleteOrder")} } }`,
      { id: globalId("Order", executing.uuid) },
      t.world.tokens.projectAdmin,
    );
    expect(deleted.data.deleteOrder).toMatchObject({
      __typename: "OrderTransitionError",
      message: "Valid states for operation: pending-consumer, pending-provider.",
      currentState: "EXECUTING",
      allowedFrom: ["PENDING_CONSUMER", "PENDING_PROVIDER"],
    });
  });

  it("two mutations in one document: the second failing keeps the first's result", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
    const result = await t.gql(
      `mutation($id: ID!) {
        first: setOrderBackendId(input: { id: $id, backendId: "kept" }) { ... on OrderBackendIdResult { changed order { backendId } } ${failuresOf("setOrderBackendId")} }
        second: setOrderStateDone(input: { id: $id }) { ... on OrderActionResult { state } ${failuresOf("setOrderStateDone")} } }`,
      { id: globalId("Order", order.uuid) },
      t.world.tokens.providerOwner,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.first).toEqual({ changed: true, order: { backendId: "kept" } });
    expect(result.data.second).toMatchObject({ __typename: "OrderTransitionError", currentState: "PENDING_PROVIDER" });
    expect(await t.app.deps.db.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ backendId: "kept", state: "PENDING_PROVIDER" });
  });
});
