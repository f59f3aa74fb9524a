import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  type GraphQLSchema,
  type IntrospectionQuery,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isUnionType,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { OFFERING_TRANSITIONS } from "../directory/transitions.ts";
import { MAINTENANCE_TRANSITIONS } from "../maintenance/transitions.ts";
import { OFFERING_USER_TRANSITIONS } from "../offering-users/transitions.ts";
import { ORDER_TRANSITIONS } from "../orders/transitions.ts";
import { RESOURCE_TRANSITIONS } from "../resources/transitions.ts";

/** The mutations a state machine decides, from the machines' own tables (and deleteOrder, which only some states allow). */
const STATEFUL_MUTATIONS = [
  ...[ORDER_TRANSITIONS, OFFERING_USER_TRANSITIONS, MAINTENANCE_TRANSITIONS, RESOURCE_TRANSITIONS, OFFERING_TRANSITIONS].flatMap((table) =>
    Object.values(table).map((rule) => rule.mutation),
  ),
  "deleteOrder",
  "updateOfferingUser", // a username moves a user being created to OK (INTERNAL_OFFERING_USER_TRANSITIONS)
].sort();

let t: TestApp;
let graph: GraphQLSchema;

beforeAll(async () => {
  t = await startTestApp();
  const { data, errors } = await t.gql<IntrospectionQuery>(getIntrospectionQuery(), {}, t.world.tokens.providerOwner);
  if (!data) throw new Error(`introspection failed: ${JSON.stringify(errors)}`);
  graph = buildClientSchema(data);
});
afterAll(() => t?.close());

const mutations = () => Object.values(graph.getMutationType()!.getFields());
const failuresOf = (mutation: string) => {
  const type = getNamedType(graph.getMutationType()!.getFields()[mutation].type);
  return isUnionType(type) ? type.getTypes().map((member) => member.name).filter((name) => name.endsWith("Error")) : [];
};
const takesId = (mutation: string) => {
  const input = graph.getMutationType()!.getFields()[mutation].args.find((arg) => arg.name === "input");
  const type = input && getNamedType(input.type);
  return Boolean(type && isInputObjectType(type) && type.getFields().id);
};

describe("introspection of /graphql as a provider owner", () => {
  it("a transition failure is in the unions of exactly the mutations a state machine decides, typed by that machine", () => {
    const transitionError = graph.getType("InvalidTransitionError");
    expect(isInterfaceType(transitionError)).toBe(true);
    const refusing = mutations().filter((m) => failuresOf(m.name).some((name) => name.endsWith("TransitionError")));
    expect(refusing.map((m) => m.name).sort()).toEqual(STATEFUL_MUTATIONS);
    for (const mutation of refusing) expect(failuresOf(mutation.name).filter((name) => name.endsWith("TransitionError"))).toHaveLength(1);
  });

  it("a mutation on an existing object takes its global id and may answer NotFoundError; a create by itself may not", () => {
    const byId = mutations().filter((m) => takesId(m.name));
    expect(byId.length).toBeGreaterThan(50);
    for (const mutation of byId) expect([mutation.name, failuresOf(mutation.name)]).toEqual([mutation.name, expect.arrayContaining(["NotFoundError"])]);
    for (const mutation of mutations().filter((m) => /^create(User|Customer|Offering|SshKey|AgentIdentity|AdminAnnouncement)$/.test(m.name)))
      expect([mutation.name, failuresOf(mutation.name)]).toEqual([mutation.name, ["PermissionDeniedError", "ValidationError"]]);
  });

  it("login fails as authentication only; logout has no typed failure (without a token it is an error, as for any request)", () => {
    expect(failuresOf("obtainToken")).toEqual(["AuthenticationError"]);
    expect(isObjectType(getNamedType(graph.getMutationType()!.getFields().logout.type))).toBe(true);
  });

  it("no state is a string: every field named state, currentState, allowedFrom or to is an enum", () => {
    const stringStates: string[] = [];
    for (const type of Object.values(graph.getTypeMap())) {
      if (type.name.startsWith("__") || !(isObjectType(type) || isInterfaceType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        if (!/^(state|currentState|allowedFrom|to)$|State$/.test(field.name)) continue;
        if (isScalarType(getNamedType(field.type))) stringStates.push(`${type.name}.${field.name}`);
      }
    }
    expect(stringStates).toEqual([]);
  });
});
