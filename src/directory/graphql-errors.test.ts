import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

/** GraphQL clients get field errors under the names of the arguments and input fields, and whole-input errors under `input`. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const fieldsOf = (result: { errors?: Array<{ extensions?: Record<string, unknown> }> }) => result.errors?.[0].extensions?.fields;

const GRANT = `mutation($input: RoleInput!) { grantRole(input: $input) { role } }`;

describe("GraphQL directory field errors", () => {
  it("a user's, project's, service provider's and offering's invalid arguments are named as the arguments", async () => {
    const staff = t.world.tokens.staff;
    const user = await t.gql(`mutation { createUser(username: "long-first-name", firstName: "${"f".repeat(101)}") { uuid } }`, {}, staff);
    expect(fieldsOf(user)).toEqual({ firstName: ["Ensure this field has no more than 100 characters."] });
    const project = await t.gql(`mutation($c: ID!) { createProject(customerUuid: $c, name: "p") { uuid } }`, { c: "0".repeat(32) }, staff);
    expect(fieldsOf(project)).toEqual({ customerUuid: ["Object does not exist."] });
    const provider = await t.gql(`mutation($c: ID!) { createServiceProvider(customerUuid: $c) { uuid } }`, { c: t.world.provider.uuid }, staff);
    expect(fieldsOf(provider)).toEqual({ customerUuid: ["Service provider with this customer already exists."] });
    const offering = await t.gql(
      `mutation($c: ID!) { createOffering(customerUuid: $c, name: "o", type: "Marketplace.Basic", pluginOptions: [1]) { uuid } }`,
      { c: t.world.provider.uuid },
      staff,
    );
    expect(fieldsOf(offering)).toEqual({ pluginOptions: ["Expected a dictionary of items."] });
  });

  it("wrong credentials are an error of the whole input", async () => {
    const login = await t.gql(`mutation { obtainToken(username: "nobody-here", password: "wrong") { token } }`);
    expect(login.errors?.[0].extensions).toEqual({ code: "VALIDATION", fields: { input: ["Unable to log in with provided credentials."] } });
  });

  it("roles: the role, user and expiration time by their input names; a role held already is an error of the whole input", async () => {
    const token = t.world.tokens.staff;
    const input = { scopeType: "PROJECT", scopeUuid: t.world.project.uuid, userUuid: t.world.users.unrelated.uuid, role: "PROJECT.MEMBER" };
    expect(fieldsOf(await t.gql(GRANT, { input: { ...input, role: "CUSTOMER.OWNER" } }, token))).toEqual({
      role: ['"CUSTOMER.OWNER" is not a valid role for this object.'],
    });
    expect(fieldsOf(await t.gql(GRANT, { input: { ...input, userUuid: "0".repeat(32) } }, token))).toEqual({ userUuid: ["Object does not exist."] });
    expect(fieldsOf(await t.gql(GRANT, { input: { ...input, expirationTime: "2000-01-01T00:00:00Z" } }, token))).toEqual({
      expirationTime: ["Expiration time should be greater than current time."],
    });
    expect((await t.gql(GRANT, { input }, token)).errors).toBeUndefined();
    const again = await t.gql(GRANT, { input }, token);
    expect(again.errors?.[0].extensions).toEqual({ code: "VALIDATION", fields: { input: ["User already has role within this scope."] } });
  });
});
