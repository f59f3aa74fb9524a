import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { WALDUR, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { makeOffering, orderIn } from "../../test/support/order-fixtures.ts";

/** The filters and orderings of Waldur's OrderFilter that py-client sends, with exact results. */

let t: TestApp;
let basic: { id: string; uuid: string };
const o: Record<string, { id: string; uuid: string; resource: { uuid: string } }> = {};
const slugs: Record<string, string> = {};

const setTimes = (id: string, created: string, modified: string) =>
  t.app.deps.db.$executeRaw`UPDATE orders SET created = ${new Date(created)}, modified = ${new Date(modified)} WHERE id = ${id}::uuid`;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const w = t.world;
  basic = await makeOffering(db, w, "Marketplace.Basic");
  const zeta = await db.customer.create({ data: { name: "Zeta Org" } });
  const zetaProject = await db.project.create({ data: { customerId: zeta.id, name: "Zeta Lab" } });
  const cheap = await db.offeringPlan.create({ data: { offeringId: w.offering.id, name: "Cheap", unitPrice: "1.5" } });
  const dear = await db.offeringPlan.create({ data: { offeringId: w.offering.id, name: "Dear", unitPrice: "20" } });
  o.consumerWait = await orderIn(db, w, "PENDING_CONSUMER", { resourceName: "alpha-vm", planId: dear.id });
  o.providerWait = await orderIn(db, w, "PENDING_PROVIDER", { resourceName: "beta-vm" });
  o.executing = await orderIn(db, w, "EXECUTING", { resourceName: "gamma-vm", planId: cheap.id });
  o.zeta = await orderIn(db, w, "PENDING_CONSUMER", { projectId: zetaProject.id, resourceName: "delta-vm" });
  o.basic = await orderIn(db, w, "PENDING_PROVIDER", { offeringId: basic.id, type: "TERMINATE" });
  await setTimes(o.consumerWait.id, "2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z");
  await setTimes(o.providerWait.id, "2024-02-01T00:00:00Z", "2024-06-01T00:00:00Z");
  await setTimes(o.executing.id, "2024-03-01T00:00:00Z", "2024-03-02T00:00:00Z");
  await setTimes(o.zeta.id, "2024-04-01T00:00:00Z", "2024-04-02T00:00:00Z");
  await setTimes(o.basic.id, "2024-05-01T00:00:00Z", "2024-05-02T00:00:00Z");
  for (const offering of await db.offering.findMany({ select: { id: true, slug: true } })) slugs[offering.id] = offering.slug;
});
afterAll(() => t.close());

const list = async (query: string, token = t.world.tokens.staff): Promise<any> =>
  (await t.http("GET", `/api/marketplace-orders/?${query}`, { token })).body;
const keysOf = async (query: string, token?: string) => {
  const body = await list(query, token);
  if (!Array.isArray(body)) throw new Error(JSON.stringify(body));
  const names = new Map(Object.entries(o).map(([name, order]) => [order.uuid, name]));
  return (body as Array<{ uuid: string }>).map((order) => names.get(order.uuid)).sort();
};
const ALL = ["basic", "consumerWait", "executing", "providerWait", "zeta"];
const enc = encodeURIComponent;

describe("order filters of Waldur's contract", () => {
  it("modified_before: the site agent's stuck-order check (offering, pending-provider and executing, older than a cutoff)", async () => {
    const base = `offering_uuid=${t.world.offering.uuid}&state=pending-provider&state=executing`;
    expect(await keysOf(`${base}&modified_before=${enc("2024-05-01T00:00:00+00:00")}`)).toEqual(["executing"]);
    expect(await keysOf(`${base}&modified_before=${enc("2024-07-01T00:00:00.000000+00:00")}`)).toEqual(["executing", "providerWait"]);
    expect(await keysOf("modified_before=2024-03-02T00:00:00Z")).toEqual(["consumerWait"]);
    expect(await keysOf("modified=2024-04-01&modified_before=2024-05-03")).toEqual(["basic", "zeta"]);
  });

  it("created_before is strictly before; with created, a window", async () => {
    expect(await keysOf("created_before=2024-02-01T00:00:00Z")).toEqual(["consumerWait"]);
    expect(await keysOf("created_before=2024-02-15")).toEqual(["consumerWait", "providerWait"]);
    expect(await keysOf("created=2024-02-01&created_before=2024-04-01")).toEqual(["executing", "providerWait"]);
    expect(await list("created_before=yesterday")).toEqual({ created_before: ["Enter a valid date/time."] });
  });

  it("offering and resource hyperlinks, through any of Waldur's views", async () => {
    expect(await keysOf(`offering=${enc(`${t.baseUrl}/api/marketplace-public-offerings/${basic.uuid}/`)}`)).toEqual(["basic"]);
    expect(await keysOf(`offering=${enc(`${t.baseUrl}/api/marketplace-provider-offerings/${basic.uuid}/`)}&offering_uuid=${t.world.offering.uuid}`)).toEqual([]);
    expect(await keysOf(`resource=${enc(`${t.baseUrl}/api/marketplace-resources/${o.executing.resource.uuid}/`)}`)).toEqual(["executing"]);
    expect(await keysOf(`resource=${enc(`/api/marketplace-provider-resources/${o.zeta.resource.uuid}/`)}`)).toEqual(["zeta"]);
  });

  it("query: the order's uuid, or part of its project's or resource's name", async () => {
    const dashed = o.executing.uuid.replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
    expect(await keysOf(`query=${o.executing.uuid}`)).toEqual(["executing"]);
    expect(await keysOf(`query=${dashed}`)).toEqual(["executing"]);
    expect(await keysOf("query=ZETA")).toEqual(["zeta"]);
    expect(await keysOf("query=beta-")).toEqual(["providerWait"]);
    expect(await keysOf("query=nothing-like-it")).toEqual([]);
  });

  it("offering_slug (repeated or comma-separated) and offering_type", async () => {
    const hpc = slugs[t.world.offering.id];
    const basicSlug = slugs[basic.id];
    expect(hpc).not.toBe("");
    expect(await keysOf(`offering_slug=${basicSlug}`)).toEqual(["basic"]);
    expect(await keysOf(`offering_slug=${basicSlug},${hpc}`)).toEqual(ALL);
    expect(await keysOf(`offering_slug=${hpc}&offering_slug=${basicSlug}`)).toEqual(ALL);
    expect(await keysOf("offering_slug=no-such-offering")).toEqual([]);
    expect(await keysOf("offering_type=Marketplace.Basic&offering_type=Marketplace.Remote")).toEqual(["basic"]);
  });

  it("what nothing here has: parent offerings, categories, order slugs, auto-approval", async () => {
    expect(await keysOf(`parent_offering_uuid=${t.world.offering.uuid}`)).toEqual([]);
    expect(await keysOf(`category_uuid=${t.world.offering.uuid}`)).toEqual([]);
    expect(await keysOf("slug=anything")).toEqual([]);
    expect(await keysOf("was_auto_approved=true")).toEqual([]);
    expect(await keysOf("was_auto_approved=false")).toEqual(ALL);
    expect(await list("category_uuid=nope")).toEqual({ category_uuid: ["Enter a valid UUID."] });
    expect(await list("was_auto_approved=maybe")).toEqual({ was_auto_approved: ["Enter a valid boolean."] });
  });

  it("can_approve_as_consumer: pending-consumer orders, with true only those the viewer may approve", async () => {
    const { projectAdmin, providerOwner, projectMember } = t.world.tokens;
    expect(await keysOf("can_approve_as_consumer=true", projectAdmin)).toEqual(["consumerWait"]);
    expect(await keysOf("can_approve_as_consumer=true", projectMember)).toEqual([]);
    expect(await keysOf("can_approve_as_consumer=true", providerOwner)).toEqual([]);
    expect(await keysOf("can_approve_as_consumer=false", providerOwner)).toEqual(["consumerWait", "zeta"]);
    expect(await keysOf("can_approve_as_consumer=true")).toEqual(["consumerWait", "zeta"]);
  });

  it("can_approve_as_provider: pending-provider orders, with true only where the viewer may approve for the provider organisation", async () => {
    const { projectAdmin, providerOwner, offeringManager } = t.world.tokens;
    expect(await keysOf("can_approve_as_provider=true", providerOwner)).toEqual(["basic", "providerWait"]);
    expect(await keysOf("can_approve_as_provider=true", projectAdmin)).toEqual([]);
    expect(await keysOf("can_approve_as_provider=false", projectAdmin)).toEqual(["basic", "providerWait"]);
    expect(await keysOf("can_approve_as_provider=true", offeringManager)).toEqual([]);
    expect(await keysOf("can_approve_as_provider=true")).toEqual(["basic", "providerWait"]);
  });

  it("service_manager_uuid: orders for the offerings the user holds a role on", async () => {
    expect(await keysOf(`service_manager_uuid=${t.world.users.offeringManager.uuid}`)).toEqual(["consumerWait", "executing", "providerWait", "zeta"]);
    expect(await keysOf(`service_manager_uuid=${t.world.users.projectAdmin.uuid}`)).toEqual([]);
    expect(await keysOf("service_manager_uuid=0123456789abcdef0123456789abcdef")).toEqual([]);
  });

  it("o=cost: by the plan's price, orders without a plan last ascending and first descending", async () => {
    const names = new Map(Object.entries(o).map(([name, order]) => [order.uuid, name]));
    const ordered = async (query: string) => ((await list(query)) as Array<{ uuid: string; cost: string | null }>).map((r) => [names.get(r.uuid), r.cost]);
    const ascending = await ordered("o=cost");
    expect(ascending.slice(0, 2)).toEqual([["executing", "1.5000000000"], ["consumerWait", "20.0000000000"]]);
    expect(ascending.slice(2).map(([, cost]) => cost)).toEqual([null, null, null]);
    const descending = await ordered("o=-cost");
    expect(descending.slice(3)).toEqual([["consumerWait", "20.0000000000"], ["executing", "1.5000000000"]]);
    expect((await ordered("o=-created")).map(([name]) => name)).toEqual(["basic", "zeta", "executing", "providerWait", "consumerWait"]);
    expect((await ordered("o=consumer_reviewed_at,created")).map(([name]) => name)).toEqual(["consumerWait", "providerWait", "executing", "zeta", "basic"]);
  });

  it("every state and type py-client sends is accepted; Restore matches nothing", async () => {
    const query = waldurOperation("GET", "/api/marketplace-orders/")!.query;
    for (const state of query.state.enum!) expect(Array.isArray(await list(`state=${state}`)), state).toBe(true);
    for (const type of query.type.enum!) expect(Array.isArray(await list(`type=${type}`)), type).toBe(true);
    expect(WALDUR.enums.RequestTypes).toContain("Restore");
    expect(await keysOf("type=Restore")).toEqual([]);
    expect(await keysOf("type=Restore&type=Terminate")).toEqual(["basic"]);
    expect(await keysOf("state=pending-consumer&state=pending-project")).toEqual(["consumerWait", "zeta"]);
  });

  it("over GraphQL, by the arguments' GraphQL names", async () => {
    const res = await t.gql(
      `query($f: OrderFilter) { orders(filter: $f, orderBy: [COST_DESC]) { totalCount nodes { uuid cost } } }`,
      { f: { offeringUuid: [t.world.offering.uuid], state: ["PENDING_PROVIDER", "EXECUTING", "PENDING_CONSUMER"], modifiedBefore: "2024-05-01T00:00:00Z", type: ["CREATE", "RESTORE"] } },
      t.world.tokens.staff,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.orders).toEqual({
      totalCount: 3,
      nodes: [
        { uuid: o.zeta.uuid, cost: null },
        { uuid: o.consumerWait.uuid, cost: "20.0000000000" },
        { uuid: o.executing.uuid, cost: "1.5000000000" },
      ],
    });
    const approvable = await t.gql(`{ orders(filter: { canApproveAsProvider: true, wasAutoApproved: false }) { nodes { uuid } } }`, {}, t.world.tokens.providerOwner);
    expect(approvable.data.orders.nodes.map((n: { uuid: string }) => n.uuid).sort()).toEqual([o.basic.uuid, o.providerWait.uuid].sort());
  });
});
