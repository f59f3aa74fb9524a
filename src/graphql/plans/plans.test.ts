import { buildSchema, execute, type ExecutionArgs, type GraphQLSchema, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { compileRoutes } from "../../../rest-adapter/execute.ts";
import { REST_API } from "../../modules.ts";
import { internalSchema, schema as publicSchema } from "../../schema.ts";
import { compilePlan } from "./compile.ts";
import { runPlan } from "./run.ts";

const SDL = `
  interface Named { name: String! }
  type Person implements Named { name: String! age: Int friends: [Person!] strict: Person! }
  type Robot implements Named { name: String! model: String }
  union Thing = Person | Robot
  type Query {
    person(id: Int = 1): Person
    people(ids: [Int!]!): [Person]
    strictPeople: [Person!]
    things: [Thing!]!
    named: [Named]
    failing: String
    failingStrict: String!
    badInt: Int
    errorValue: String
  }
  type Mutation { add(n: Int!): Int! }
`;

/** A schema of graphql-js's own, resolvers mixing values and promises, errors in nullable and non-null places. */
function referenceSchema(): GraphQLSchema {
  const built = buildSchema(SDL);
  const person = (id: number): Record<string, unknown> => ({
    kind: "Person",
    name: id === 3 ? null : `p${id}`,
    age: id % 2 ? Promise.resolve(id * 10) : id * 10,
    friends: () => [person(id + 1), Promise.resolve(person(id + 2))],
    strict: () => (id > 4 ? null : person(id + 1)),
  });
  const robot = { kind: "Robot", name: "r2", model: () => Promise.reject(new Error("no model")) };
  const resolvers: Record<string, (args: Record<string, unknown>) => unknown> = {
    person: ({ id }) => person(id as number),
    people: ({ ids }) => (ids as number[]).map((id) => (id === 0 ? Promise.reject(new Error("zero")) : person(id))),
    strictPeople: () => [person(1), person(3)],
    things: () => [person(2), robot, Promise.resolve(person(4))],
    named: () => [robot, person(5)],
    failing: () => {
      throw new Error("failed");
    },
    failingStrict: () => Promise.reject(new Error("failed strictly")),
    badInt: () => "not a number",
    errorValue: () => new Error("returned, not thrown"),
  };
  for (const [name, resolve] of Object.entries(resolvers)) built.getQueryType()!.getFields()[name].resolve = (_source, args) => resolve(args);
  let total = 0;
  built.getMutationType()!.getFields().add.resolve = async (_source, { n }) => {
    await new Promise((resolve) => setTimeout(resolve, 10 - (n as number)));
    return (total = total * 10 + (n as number));
  };
  for (const name of ["Thing", "Named"]) {
    const abstract = built.getType(name) as { resolveType?: (value: { kind: string }) => string };
    abstract.resolveType = (value) => value.kind;
  }
  return built;
}

const DOCUMENTS: Array<[string, string, Record<string, unknown>?]> = [
  ["nested objects, lists and promises", `{ person { name age friends { name age friends { age } } } }`],
  ["arguments from variables, defaults and literals", `query($ids: [Int!]!) { a: person { name } b: person(id: 2) { name } people(ids: $ids) { name } }`, { ids: [1, 0, 3] }],
  ["a null in a non-null field bubbles to the nearest nullable parent", `{ person(id: 3) { name age } strictPeople { name } }`],
  ["a non-null chain ending at the root nulls data", `{ failingStrict person { name } }`],
  ["thrown, rejected and returned errors, a scalar that cannot serialize", `{ failing badInt errorValue person(id: 4) { strict { strict { name } } } }`],
  ["unions and interfaces, fragments with type conditions, __typename", `{ things { __typename ... on Person { name age } ...R } named { name ... on Robot { model } } } fragment R on Robot { name model }`],
  ["one response name asked twice merges its selections", `{ person { friends { name } friends { age } } }`],
];

describe("compiled plans", () => {
  const reference = referenceSchema();
  const json = (value: unknown) => JSON.parse(JSON.stringify(value));

  it.each(DOCUMENTS)("answer as graphql-js does: %s", async (_name, text, variableValues) => {
    const args: ExecutionArgs = { schema: reference, document: parse(text), variableValues };
    const plan = compilePlan(reference, args.document);
    expect(plan).toBeDefined();
    expect(json(await runPlan(plan!, args))).toEqual(json(await execute(args)));
  });

  it("run a mutation's fields one after another", async () => {
    const args: ExecutionArgs = { schema: reference, document: parse(`mutation { a: add(n: 1) b: add(n: 2) c: add(n: 3) }`) };
    expect(json(await runPlan(compilePlan(reference, args.document)!, args))).toEqual({ data: { a: 1, b: 12, c: 123 } });
  });

  it("leave to the executor what it reports in its own words or runs by its own rules", () => {
    const unplanned = ["subscription { x }", "{ person @include(if: true) { name } }", "{ __schema { queryType { name } } }", "query A { failing } query B { failing }", "{ __proto__: failing }"];
    for (const text of unplanned) expect(compilePlan(reference, parse(text)), text).toBeUndefined();
    const badVariables = parse(`query($ids: [Int!]!) { people(ids: $ids) { name } }`);
    expect(runPlan(compilePlan(reference, badVariables)!, { schema: reference, document: badVariables, variableValues: { ids: "x" } })).toBeUndefined();
  });

  it("cover every REST route's document and the frontend's page", () => {
    const unplanned = compileRoutes(REST_API, internalSchema)
      .filter((route) => !compilePlan(route.schema, route.parsed))
      .map((route) => `${route.method} ${route.path}`);
    expect(unplanned).toEqual([]);
    const page = parse(`{ offeringUsers(first: 10) { totalCount nodes { uuid state created user { username email fullName } offering { name } } } }`);
    expect(compilePlan(publicSchema, page)).toBeDefined();
  });
});
