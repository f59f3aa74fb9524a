/**
 * A cursor costs no statement: for every GraphQL connection, the page after a cursor sends as many statements as the
 * first page and as a page by offset, and its rows' keys (its cursors) are read in the page's own statement, which
 * sql-reads compiles (it would go to Prisma's client otherwise, and the keys be read apart).
 */
import { GraphQLNonNull, GraphQLObjectType, isNonNullType } from "graphql";
import { afterAll, beforeAll, expect, it } from "vitest";
import { schema } from "../src/schema.ts";
import { startTestApp, type TestApp } from "./support/app.ts";
import { seedEveryList } from "./support/list-fixtures.ts";
import { countSql } from "./support/sql-counter.ts";

let t: TestApp;
beforeAll(async () => {
  // The token is looked up once for the whole run: a cache that expired between two counted requests (a loaded
  // machine) would add its lookup to one of them.
  t = await startTestApp({ tokenCacheMs: 3_600_000 });
  await seedEveryList(t, 3);
  const { db } = t.app.deps;
  const { world } = t;
  const resource = await db.resource.findFirstOrThrow({ where: { offeringId: world.offering.id } });
  const component = await db.offeringComponent.findFirstOrThrow({ where: { offeringId: world.offering.id } });
  for (let i = 0; i < 2; i++) {
    const customer = await db.customer.create({ data: { name: `Provider ${i}` } });
    await db.serviceProvider.create({ data: { customerId: customer.id } });
    await db.adminAnnouncement.create({ data: { description: `Announcement ${i}`, activeFrom: new Date(), activeTo: new Date(Date.now() + 3_600_000) } });
    const user = i ? world.users.projectMember.id : world.users.projectAdmin.id;
    await db.componentUserUsageLimit.create({ data: { resourceId: resource.id, componentId: component.id, userId: user, limit: 10 + i } });
    const subscription = await db.eventSubscription.create({ data: { userId: world.users.staff.id, tokenDigest: String(i).repeat(64), objectType: "order" } });
    await db.eventSubscriptionQueue.create({ data: { subscriptionId: subscription.id, offeringId: world.offering.id, objectType: "order" } });
  }
});
afterAll(() => t.close());

/** Connection fields of the query type and the arguments each needs. */
function connections(): Array<{ field: string; args: string }> {
  const required: Record<string, string> = { serviceProviderKeys: `uuid: "${t.world.serviceProvider.uuid}"` };
  return Object.values(schema.getQueryType()!.getFields()).flatMap((field) => {
    const type = isNonNullType(field.type) ? field.type.ofType : field.type;
    if (!(type instanceof GraphQLObjectType) || !type.name.endsWith("Connection")) return [];
    const needs = field.args.filter((arg) => arg.type instanceof GraphQLNonNull);
    if (needs.length && !required[field.name]) return [];
    return [{ field: field.name, args: required[field.name] ? `${required[field.name]}, ` : "" }];
  });
}

it("every connection's page after a cursor sends the statements of its first page and of a page by offset, its keys read with its rows", async () => {
  const list = connections();
  expect(list.length).toBeGreaterThan(20);
  const token = t.world.tokens.staff;
  const run = (field: string, args: string) => countSql(() => t.gql(`{ list: ${field}(${args}) { totalCount pageInfo { hasNextPage endCursor } nodes { __typename } } }`, {}, token));
  const paged: string[] = [];
  for (const { field, args } of list) {
    await run(field, `${args}first: 1`); // warms what a process reads once
    const first = await run(field, `${args}first: 1`);
    expect(first.result.errors, field).toBeUndefined();
    const cursor = first.result.data.list.pageInfo.endCursor;
    if (!cursor) continue;
    const after = await run(field, `${args}first: 1, after: "${cursor}"`);
    const offset = await countSql(() => t.gql(`{ list: ${field}(${args}first: 1, offset: 1) { totalCount pageInfo { hasNextPage } nodes { __typename } } }`, {}, token));
    expect(after.result.errors, field).toBeUndefined();
    expect({ first: first.statements, after: after.statements }, `${field}\n${after.texts.join("\n")}`).toEqual({ first: offset.statements, after: offset.statements });
    if (after.result.data.list.nodes.length) {
      expect(after.texts.some((text) => text.includes('AS "$key0"') && / LIMIT \d+/.test(text)), `${field}\n${after.texts.join("\n")}`).toBe(true);
      paged.push(field);
    }
  }
  expect(paged.sort()).toEqual(list.map((each) => each.field).sort());
});
