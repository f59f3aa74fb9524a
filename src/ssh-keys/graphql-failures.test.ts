import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { ed25519Key } from "../../test/support/ssh-test-keys.ts";
import { globalId } from "../../test/support/global-ids.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const CREATE = `mutation($input: CreateSshKeyInput!) { createSshKey(input: $input) { ... on SshKey { uuid name } ${failuresOf("createSshKey")} } }`;
const DELETE = `mutation($id: ID!) { deleteSshKey(input: { id: $id }) { ... on Deletion { uuid } ${failuresOf("deleteSshKey")} } }`;
const create = async (input: Record<string, unknown>, token: string) => (await t.gql(CREATE, { input }, token)).data.createSshKey;

describe("SSH key mutations answer refusals as typed failures", () => {
  it("a key that does not exist is a NotFoundError", async () => {
    const result = await t.gql(DELETE, { id: globalId("SshKey", "0".repeat(32)) }, t.world.tokens.staff);
    expect(result.data.deleteSshKey).toEqual({ __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." });
  });

  it("a malformed id, a bare uuid, and an existing key's uuid under another type are the same NotFoundError", async () => {
    const own = await create({ publicKey: ed25519Key("kept") }, t.world.tokens.projectMember);
    for (const id of ["not-a-global-id", own.uuid, globalId("User", own.uuid)]) {
      const result = await t.gql(DELETE, { id }, t.world.tokens.staff);
      expect(result.data.deleteSshKey).toEqual({ __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." });
    }
    expect(await t.app.deps.db.sshKey.count({ where: { name: "kept" } })).toBe(1);
  });

  it("a key for another user from a non-staff caller, and support deleting a key, are PermissionDeniedErrors", async () => {
    const forOther = await create({ publicKey: ed25519Key("other"), userUuid: t.world.users.projectMember.uuid }, t.world.tokens.providerOwner);
    expect(forOther).toEqual({ __typename: "PermissionDeniedError", code: "FORBIDDEN", message: "Only staff may add a key for another user." });
    const own = await create({ publicKey: ed25519Key("own") }, t.world.tokens.projectMember);
    const bySupport = await t.gql(DELETE, { id: globalId("SshKey", own.uuid) }, t.world.tokens.support);
    expect(bySupport.data.deleteSshKey).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
  });

  it("invalid input is a ValidationError naming the input's fields", async () => {
    const tooLong = await create({ publicKey: ed25519Key(), name: "n".repeat(151) }, t.world.tokens.projectMember);
    expect(tooLong).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(tooLong)).toEqual({ name: ["Ensure this field has no more than 150 characters."] });
  });

  it("a second mutation that fails leaves the first's result in place", async () => {
    const result = await t.gql(
      `mutation($k: String!, $id: ID!) {
        created: createSshKey(input: { publicKey: $k, name: "first-of-two" }) { ... on SshKey { name } ${failuresOf("createSshKey")} }
        refused: deleteSshKey(input: { id: $id }) { ... on Deletion { uuid } ${failuresOf("deleteSshKey")} }
      }`,
      { k: ed25519Key(), id: globalId("SshKey", "0".repeat(32)) },
      t.world.tokens.projectMember,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.created).toEqual({ name: "first-of-two" });
    expect(result.data.refused).toMatchObject({ __typename: "NotFoundError" });
    expect(await t.app.deps.db.sshKey.count({ where: { name: "first-of-two" } })).toBe(1);
  });
});
