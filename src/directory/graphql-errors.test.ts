import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";

/** GraphQL clients get field errors under the names of the input fields, and whole-input errors under `input`. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const GRANT = `mutation($input: RoleInput!) { grantRole(input: $input) { ... on RoleGrant { role } ${failuresOf("grantRole")} } }`;

/** The one mutation's typed failure, which must be a ValidationError. */
async function validation(document: string, variables: Record<string, unknown>, token?: string) {
  const result = await t.gql<Record<string, Parameters<typeof fieldsOf>[0]>>(document, variables, token);
  expect(result.errors).toBeUndefined();
  const failure = Object.values(result.data ?? {})[0];
  expect(failure).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
  return fieldsOf(failure);
}

describe("GraphQL directory field errors", () => {
  it("a user's, project's, service provider's and offering's invalid input fields are named as the input fields", async () => {
    const staff = t.world.tokens.staff;
    const user = `mutation($f: String) { createUser(input: { username: "long-first-name", firstName: $f }) { ... on User { uuid } ${failuresOf("createUser")} } }`;
    expect(await validation(user, { f: "f".repeat(101) }, staff)).toEqual({ firstName: ["Ensure this field has no more than 100 characters."] });
    const project = `mutation($c: ID!) { createProject(input: { customerUuid: $c, name: "p" }) { ... on Project { uuid } ${failuresOf("createProject")} } }`;
    expect(await validation(project, { c: "0".repeat(32) }, staff)).toEqual({ customerUuid: ["Object does not exist."] });
    const coded = `mutation($c: ID!) { createProject(input: { customerUuid: $c, name: "p", oecdFos2007Code: "9.9" }) { ... on Project { uuid } ${failuresOf("createProject")} } }`;
    expect(await validation(coded, { c: t.world.provider.uuid }, staff)).toEqual({ oecdFos2007Code: ['"9.9" is not a valid choice.'] });
    const provider = `mutation($c: ID!) { createServiceProvider(input: { customerUuid: $c }) { ... on ServiceProvider { uuid } ${failuresOf("createServiceProvider")} } }`;
    expect(await validation(provider, { c: t.world.provider.uuid }, staff)).toEqual({
      customerUuid: ["Service provider with this customer already exists."],
    });
    const offering = `mutation($c: ID!) {
      createOffering(input: { customerUuid: $c, name: "o", type: "Marketplace.Basic", pluginOptions: [1] }) { ... on Offering { uuid } ${failuresOf("createOffering")} } }`;
    expect(await validation(offering, { c: t.world.provider.uuid }, staff)).toEqual({ pluginOptions: ["Expected a dictionary of items."] });
  });

  it("wrong credentials are an AuthenticationError (to REST, an error of the whole input, as Waldur answers)", async () => {
    const login = `mutation { obtainToken(input: { username: "nobody-here", password: "wrong" }) { ... on AuthToken { token } ${failuresOf("obtainToken")} } }`;
    const result = await t.gql(login, {});
    expect(result).toEqual({ data: { obtainToken: { __typename: "AuthenticationError", code: "VALIDATION", message: "Unable to log in with provided credentials." } } });
    const rest = await t.http("POST", "/api-auth/password/", { body: { username: "nobody-here", password: "wrong" } });
    expect([rest.status, rest.body]).toEqual([400, { non_field_errors: ["Unable to log in with provided credentials."] }]);
  });

  it("roles: the role, user and expiration time by their input names; a role held already is an error of the whole input", async () => {
    const token = t.world.tokens.staff;
    const input = { scopeType: "PROJECT", scopeUuid: t.world.project.uuid, userUuid: t.world.users.unrelated.uuid, role: "PROJECT_MEMBER" };
    expect(await validation(GRANT, { input: { ...input, role: "CUSTOMER_OWNER" } }, token)).toEqual({
      role: ['"CUSTOMER.OWNER" is not a valid role for this object.'],
    });
    expect(await validation(GRANT, { input: { ...input, userUuid: "0".repeat(32) } }, token)).toEqual({ userUuid: ["Object does not exist."] });
    expect(await validation(GRANT, { input: { ...input, expirationTime: "2000-01-01T00:00:00Z" } }, token)).toEqual({
      expirationTime: ["Expiration time should be greater than current time."],
    });
    expect(await t.gql(GRANT, { input }, token)).toEqual({ data: { grantRole: { role: "PROJECT_MEMBER" } } });
    expect(await validation(GRANT, { input }, token)).toEqual({ input: ["User already has role within this scope."] });
  });

  it("a role name that is not a Role value is refused by GraphQL itself", async () => {
    const input = { scopeType: "PROJECT", scopeUuid: t.world.project.uuid, userUuid: t.world.users.unrelated.uuid, role: "PROJECT.MEMBER" };
    const result = await t.gql(GRANT, { input }, t.world.tokens.staff);
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0].message).toMatch(/Role/);
  });
});
