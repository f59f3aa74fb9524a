import { readFileSync } from "node:fs";
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  type GraphQLField,
  type GraphQLSchema,
  type IntrospectionQuery,
  isInterfaceType,
  isObjectType,
  parse,
  validate,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { internalSchema, schema } from "../schema.ts";
import { GRAPHIQL_OPTIONS } from "../server/graphiql.ts";

type Field = GraphQLField<unknown, unknown>;

/** Every field of the schema's object and interface types, by `Type.field`. */
function fieldsOf(graph: GraphQLSchema): Map<string, Field> {
  const fields = new Map<string, Field>();
  for (const type of Object.values(graph.getTypeMap())) {
    if (type.name.startsWith("__") || !(isObjectType(type) || isInterfaceType(type))) continue;
    for (const field of Object.values(type.getFields())) fields.set(`${type.name}.${field.name}`, field);
  }
  return fields;
}

const taggedRestPresentation = (field: Field) => JSON.stringify(field.extensions.subGraphs) === JSON.stringify(["internal"]);

/** The `Type.field`s docs/graphql.md lists as public links for people and uuids kept beside a relation. */
function documentedKeptFields(): string[] {
  const docs = readFileSync(new URL("../../docs/graphql.md", import.meta.url), "utf8");
  const section = /^### Links and uuids the public graph keeps\n([\s\S]*?)^#/m.exec(docs)?.[1] ?? "";
  return [...section.matchAll(/`(\w+\.\w+)`/g)].map(([, name]) => name);
}

describe("the public and the internal graph", () => {
  const publicFields = fieldsOf(schema);
  const internalFields = fieldsOf(internalSchema);
  const onlyInternal = [...internalFields].filter(([name]) => !publicFields.has(name));

  it("the internal graph has every public field, with the same type", () => {
    for (const [name, field] of publicFields) expect([name, String(internalFields.get(name)?.type)]).toEqual([name, String(field.type)]);
  });

  it("every field only the internal graph has is tagged REST presentation, or belongs to a type only they reach", () => {
    expect(onlyInternal.length).toBeGreaterThan(200);
    const typeOf = (name: string) => name.split(".")[0];
    const untagged = onlyInternal.filter(([name, field]) => !taggedRestPresentation(field) && schema.getType(typeOf(name)));
    expect(untagged.map(([name]) => name)).toEqual([]);
    const internalTypes = new Set(onlyInternal.map(([name]) => typeOf(name)).filter((type) => !schema.getType(type)));
    const reachingThem = [...internalFields].filter(([, field]) => internalTypes.has(getNamedType(field.type).name));
    expect(reachingThem.filter(([name]) => publicFields.has(name)).map(([name]) => name)).toEqual([]);
  });
});

it("GraphiQL's prefilled query and the subscription its comment suggests run on the public graph", () => {
  const text = GRAPHIQL_OPTIONS.defaultQuery ?? "";
  const subscription = text.slice(text.indexOf("# subscription")).replace(/^# ?/gm, "");
  for (const document of [text, subscription]) expect(validate(schema, parse(document))).toEqual([]);
});

describe("what /graphql serves", () => {
  let t: TestApp;
  let served: GraphQLSchema;
  beforeAll(async () => {
    t = await startTestApp();
    const { data, errors } = await t.gql<IntrospectionQuery>(getIntrospectionQuery(), {}, t.world.tokens.providerOwner);
    if (!data) throw new Error(`introspection failed: ${JSON.stringify(errors)}`);
    served = buildClientSchema(data);
  });
  afterAll(() => t?.close());

  it("is the public schema", () => {
    expect([...fieldsOf(served).keys()].sort()).toEqual([...fieldsOf(schema).keys()].sort());
  });

  it("has no API link, label, display name or Waldur integer, and only the documented links and uuids", () => {
    const names = [...fieldsOf(served)].map(([name, field]) => ({ name, field: name.split(".")[1], type: String(field.type) }));
    const kept = documentedKeptFields();
    expect(kept.length).toBeGreaterThan(10);
    expect(names.filter(({ field }) => field === "url")).toEqual([]);
    expect(names.filter(({ field }) => /Label$|Display$/.test(field))).toEqual([]);
    expect(names.filter(({ field, type }) => /Code$/.test(field) && /^Int/.test(type))).toEqual([]);
    expect(names.filter(({ field }) => /Url$/.test(field)).map(({ name }) => name).sort()).toEqual(kept.filter((name) => /Url$/.test(name)).sort());
    expect(names.filter(({ field }) => /Uuid$/.test(field)).map(({ name }) => name).sort()).toEqual(kept.filter((name) => /Uuid$/.test(name)).sort());
  });
});
