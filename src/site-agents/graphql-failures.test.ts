import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { globalId } from "../../test/support/global-ids.ts";

let t: TestApp;
let identity: string;
beforeAll(async () => {
  t = await startTestApp();
  const created = await t.http("POST", "/api/marketplace-site-agent-identities/", {
    token: t.world.tokens.providerOwner,
    body: { offering: t.world.offering.uuid, name: "failures" },
  });
  identity = created.body.uuid;
});
afterAll(() => t.close());

const UPDATE = `mutation($input: AgentIdentityUpdateInput!) { updateAgentIdentity(input: $input) { ... on AgentIdentity { uuid name } ${failuresOf("updateAgentIdentity")} } }`;
const update = async (input: Record<string, unknown>, token = t.world.tokens.providerOwner) =>
  (await t.gql(UPDATE, { input }, token)).data.updateAgentIdentity;

describe("site agent mutations answer refusals as typed failures", () => {
  it("an identity that does not exist is a NotFoundError", async () => {
    expect(await update({ id: globalId("AgentIdentity", "0".repeat(32)), name: "x" })).toEqual({ __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." });
  });

  it("support sees the identity but may not change it: a PermissionDeniedError", async () => {
    expect(await update({ id: globalId("AgentIdentity", identity), version: "9" }, t.world.tokens.support)).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
    const service = await t.gql(
      `mutation($uuid: ID!) { registerAgentService(input: { identityUuid: $uuid, name: "s" }) { ... on AgentRegistration { created } ${failuresOf("registerAgentService")} } }`,
      { uuid: identity },
      t.world.tokens.support,
    );
    expect(service.data.registerAgentService).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
  });

  it("invalid input is a ValidationError naming the input's fields", async () => {
    const blank = await update({ id: globalId("AgentIdentity", identity), name: " " });
    expect(blank).toMatchObject({ __typename: "ValidationError", code: "VALIDATION", message: "This field may not be blank." });
    expect(fieldsOf(blank)).toEqual({ name: ["This field may not be blank."] });
    expect(fieldsOf(await update({ id: globalId("AgentIdentity", identity), configFilePath: "p".repeat(501) }))).toEqual({
      configFilePath: ["Ensure this field has no more than 500 characters."],
    });
  });

  it("a second mutation that fails leaves the first's result in place", async () => {
    const result = await t.gql(
      `mutation($o: ID!, $id: ID!) {
        created: createAgentIdentity(input: { offeringUuid: $o, name: "first-of-two" }) { ... on AgentIdentity { name } ${failuresOf("createAgentIdentity")} }
        refused: updateAgentIdentity(input: { id: $id, name: "second" }) { ... on AgentIdentity { name } ${failuresOf("updateAgentIdentity")} }
      }`,
      { o: t.world.offering.uuid, id: globalId("AgentIdentity", "0".repeat(32)) },
      t.world.tokens.providerOwner,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.created).toEqual({ name: "first-of-two" });
    expect(result.data.refused).toMatchObject({ __typename: "NotFoundError" });
    expect(await t.app.deps.db.agentIdentity.count({ where: { name: "first-of-two" } })).toBe(1);
  });
});
