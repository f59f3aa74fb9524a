import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GraphQLField, getNamedType, isEnumType, isInputObjectType } from "graphql";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { countSql } from "../../test/support/sql-counter.ts";
import { type CollectionContract, orderValues } from "../collections/contract.ts";
import { schema } from "../schema.ts";

const SRC = new URL("../", import.meta.url);

const isContract = (value: unknown): value is CollectionContract =>
  typeof value === "object" && value !== null && "filters" in value && "orderings" in value && "defaultOrder" in value;

/** Every contract a production module declares (`defineContract`), found by reading the sources, so a new one counts. */
async function declaredContracts(): Promise<Array<[string, CollectionContract]>> {
  const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && readFileSync(new URL(file, SRC), "utf8").includes("defineContract<"),
  );
  const found: Array<[string, CollectionContract]> = [];
  for (const file of files) {
    const module: Record<string, unknown> = await import(new URL(file, SRC).href);
    for (const [name, value] of Object.entries(module)) if (isContract(value)) found.push([name, value]);
  }
  return found;
}

const sorted = (names: Iterable<string>) => [...names].sort().join();
const queryFields = Object.values(schema.getQueryType()!.getFields());
const argType = (field: GraphQLField<unknown, unknown>, name: string) => {
  const arg = field.args.find((a) => a.name === name);
  return arg && getNamedType(arg.type).name;
};

/** The Query fields that list `contract`'s collection: a `<X>Filter` of exactly its filters, a `<X>Order` of exactly its orderings. */
function listsOf(contract: CollectionContract) {
  const prefixes = Object.values(schema.getTypeMap())
    .filter((type) => isInputObjectType(type) && type.name.endsWith("Filter") && sorted(Object.keys(type.getFields())) === sorted(Object.keys(contract.filters)))
    .map((filter) => filter.name.slice(0, -"Filter".length))
    .filter((prefix) => {
      const order = schema.getType(`${prefix}Order`);
      return isEnumType(order) && sorted(order.getValues().map((v) => v.name)) === sorted(orderValues(contract).keys());
    });
  return queryFields.filter((field) => prefixes.some((prefix) => argType(field, "filter") === `${prefix}Filter` && argType(field, "orderBy") === `${prefix}Order`));
}

describe("every collection contract has its GraphQL surface", () => {
  it("a filter input of its filters, an order enum of its orderings, and a paged list on Query taking both", async () => {
    const contracts = await declaredContracts();
    expect(contracts.map(([name]) => name)).toEqual(expect.arrayContaining(["ORDER_CONTRACT", "EVENT_CONTRACT", "ADMIN_ANNOUNCEMENT_CONTRACT"]));
    for (const [name, contract] of contracts) {
      const lists = listsOf(contract);
      expect(lists.length, `${name}: no list on Query takes a filter and an order of exactly its own`).toBeGreaterThan(0);
      for (const list of lists) {
        expect(getNamedType(list.type).name, list.name).toMatch(/Connection$/);
        expect(list.args.map((a) => a.name), list.name).toEqual(expect.arrayContaining(["first", "after", "last", "before", "offset"]));
      }
    }
  });
});

describe("a record field", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it("reads the relations asked for within the record's own statement", async () => {
    const ou = await t.world.offeringUser("OK");
    const read = (selection: string) =>
      countSql(() => t.gql(`query($uuid: ID!) { offeringUser(uuid: $uuid) { ${selection} } }`, { uuid: ou.uuid }, t.world.tokens.providerOwner));
    await read("uuid"); // the viewer's grants, read once and kept
    const bare = await read("uuid");
    const nested = await read("uuid offering { name customer { name } } user { username email }");
    expect(nested.result.errors).toBeUndefined();
    expect(nested.result.data.offeringUser).toMatchObject({ uuid: ou.uuid, offering: { customer: { name: expect.any(String) } }, user: { username: expect.any(String) } });
    expect(nested.statements).toBe(bare.statements);
  });

  it("is null, not an error, for a uuid nobody has", async () => {
    const res = await t.gql(`{ offeringUser(uuid: "${"0".repeat(32)}") { uuid } }`, {}, t.world.tokens.providerOwner);
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ offeringUser: null });
  });
});
