import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf } from "../../test/support/graphql-failures.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { toHex } from "../platform/ids.ts";

/** Directory mutations answer a refusal the client can act on as a typed result, not as an entry of `errors`. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const MISSING = "0".repeat(32);
const ACTIVATE = `mutation($id: ID!) { activateOffering(input: { id: $id }) { ... on Offering { uuid state } ${failuresOf("activateOffering")} } }`;
const CREATE_OFFERING = `mutation($customer: ID!, $name: String!) {
  createOffering(input: { customerUuid: $customer, name: $name, type: "Marketplace.Basic" }) { ... on Offering { uuid state } ${failuresOf("createOffering")} } }`;
const GRANT = `mutation($input: RoleInput!) { grantRole(input: $input) { ... on RoleGrant { uuid role isActive } ${failuresOf("grantRole")} } }`;
const REVOKE = `mutation($input: RoleInput!) { revokeRole(input: $input) { ... on RoleGrant { uuid role isActive } ${failuresOf("revokeRole")} } }`;

async function draftOffering(name: string): Promise<string> {
  const res = await t.gql(CREATE_OFFERING, { customer: t.world.provider.uuid, name }, t.world.tokens.providerOwner);
  expect(res.data?.createOffering).toEqual({ uuid: expect.any(String), state: "DRAFT" });
  return res.data!.createOffering.uuid;
}

async function newUser(username: string): Promise<string> {
  return toHex((await t.app.deps.db.user.create({ data: { username } })).id);
}

describe("typed failures of directory mutations", () => {
  it("NotFoundError: an offering that does not exist", async () => {
    const res = await t.gql(ACTIVATE, { id: globalId("Offering", MISSING) }, t.world.tokens.staff);
    expect(res).toEqual({ data: { activateOffering: { __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." } } });
    const draft = await draftOffering("Wrong id");
    for (const id of [globalId("Customer", t.world.provider.uuid), globalId("User", t.world.users.staff.uuid), "nope"]) {
      const wrong = await t.gql(ACTIVATE, { id }, t.world.tokens.staff);
      expect(wrong).toEqual({ data: { activateOffering: { __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." } } });
    }
    const { data } = await t.gql(`query($uuid: ID!) { offering(uuid: $uuid) { state } }`, { uuid: draft }, t.world.tokens.staff);
    expect(data.offering).toEqual({ state: "DRAFT" });
  });

  it("PermissionDeniedError: a customer created by someone who is not staff, an offering activated by its provider's support", async () => {
    const customer = await t.gql(`mutation { createCustomer(input: { name: "Not mine" }) { ... on Customer { uuid } ${failuresOf("createCustomer")} } }`, {}, t.world.tokens.providerOwner);
    expect(customer.data?.createCustomer).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
    const draft = await draftOffering("Guarded");
    const activate = await t.gql(ACTIVATE, { id: globalId("Offering", draft) }, t.world.tokens.providerSupport);
    expect(activate.data?.activateOffering).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
  });

  it("ValidationError: fields by their camelCase input names", async () => {
    const res = await t.gql(
      `mutation { createUser(input: { username: "bad name", firstName: "${"f".repeat(101)}" }) { ... on User { uuid } ${failuresOf("createUser")} } }`,
      {},
      t.world.tokens.staff,
    );
    expect(res.data?.createUser).toEqual({
      __typename: "ValidationError",
      code: "VALIDATION",
      message: "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.",
      fields: [{ path: "username", message: "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters." }],
    });
    const offering = await t.gql(CREATE_OFFERING, { customer: t.world.provider.uuid, name: " " }, t.world.tokens.providerOwner);
    expect(offering.data?.createOffering).toMatchObject({ __typename: "ValidationError", fields: [{ path: "name", message: "This field may not be blank." }] });
  });

  it("InvalidTransitionError: activating an Active offering carries its state and the states it may start from", async () => {
    const draft = await draftOffering("Twice");
    const first = await t.gql(ACTIVATE, { id: globalId("Offering", draft) }, t.world.tokens.providerOwner);
    expect(first.data?.activateOffering).toEqual({ uuid: draft, state: "ACTIVE" });
    const again = await t.gql(ACTIVATE, { id: globalId("Offering", draft) }, t.world.tokens.providerOwner);
    expect(again).toEqual({
      data: {
        activateOffering: {
          __typename: "OfferingTransitionError",
          code: "CONFLICT",
          message: "Valid states for operation: Draft, Paused.",
          currentState: "ACTIVE",
          allowedFrom: ["DRAFT", "PAUSED"],
        },
      },
    });
  });

  it("two mutations in one document: the second's failure leaves the first's result", async () => {
    const res = await t.gql(
      `mutation($missing: ID!) {
        created: createCustomer(input: { name: "Kept customer" }) { ... on Customer { name } ${failuresOf("createCustomer")} }
        refused: activateOffering(input: { id: $missing }) { ... on Offering { uuid } ${failuresOf("activateOffering")} } }`,
      { missing: globalId("Offering", MISSING) },
      t.world.tokens.staff,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({
      created: { name: "Kept customer" },
      refused: { __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." },
    });
    expect(await t.app.deps.db.customer.count({ where: { name: "Kept customer" } })).toBe(1);
  });
});

describe("roles over GraphQL", () => {
  it("grantRole takes and answers a Role value; revokeRole answers the grant it ended", async () => {
    const userUuid = await newUser("typed-role-holder");
    const input = { scopeType: "OFFERING", scopeUuid: t.world.offering.uuid, userUuid, role: "OFFERING_MANAGER" };
    const granted = await t.gql(GRANT, { input }, t.world.tokens.providerOwner);
    const grant = { uuid: expect.any(String), role: "OFFERING_MANAGER" };
    expect(granted.data?.grantRole).toEqual({ ...grant, isActive: true });
    const revoked = await t.gql(REVOKE, { input }, t.world.tokens.providerOwner);
    expect(revoked.data?.revokeRole).toEqual({ ...grant, uuid: granted.data!.grantRole.uuid, isActive: false });
  });

  it("revoking a role not held is a NotFoundError; managing roles without the right a PermissionDeniedError", async () => {
    const userUuid = await newUser("typed-role-none");
    const input = { scopeType: "CUSTOMER", scopeUuid: t.world.provider.uuid, userUuid, role: "CUSTOMER_MANAGER" };
    const missing = await t.gql(REVOKE, { input }, t.world.tokens.providerOwner);
    expect(missing.data?.revokeRole).toMatchObject({ __typename: "NotFoundError", code: "NOT_FOUND" });
    const denied = await t.gql(GRANT, { input }, t.world.tokens.providerManager);
    expect(denied.data?.grantRole).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
  });
});
