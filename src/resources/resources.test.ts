import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { PERSONAS, type Persona } from "../../test/support/world.ts";
import { makeOffering, makeResource } from "../../test/support/order-fixtures.ts";

let t: TestApp;
let other: { id: string; uuid: string };
beforeAll(async () => {
  t = await startTestApp();
  other = await makeOffering(t.app.deps.db, t.world, "Marketplace.Basic");
});
afterAll(() => t.close());

const BASE = "/api/marketplace-provider-resources";
const list = async (query: string, token = t.world.tokens.providerOwner) => (await t.http("GET", `${BASE}/?${query}`, { token })).body;

/** The provider's view: anyone with a role on the provider organisation or the offering; staff and support all. */
const SEES: Record<Persona, boolean> = {
  staff: true, support: true, providerOwner: true, providerManager: true, providerSupport: true, offeringManager: true,
  projectAdmin: false, projectManager: false, projectMember: false, unrelated: false,
};

describe("provider view", () => {
  for (const persona of PERSONAS) {
    it(`${persona} ${SEES[persona] ? "sees" : "does not see"} the provider's resources`, async () => {
      const resource = await makeResource(t.app.deps.db, t.world, "OK", { backendId: `seen-by-${persona}` });
      const token = t.world.tokens[persona];
      expect(await list(`backend_id=seen-by-${persona}`, token)).toHaveLength(SEES[persona] ? 1 : 0);
      expect((await t.http("GET", `${BASE}/${resource.uuid}/`, { token })).status).toBe(SEES[persona] ? 200 : 404);
    });
  }

  it("GraphQL's resources(view: ANY) shows them to the consumer too", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK", { name: "consumer-visible" });
    const query = `query($f: ResourceFilter) { resources(filter: $f) { totalCount nodes { uuid name project { uuid } offering { uuid } } } }`;
    const res = await t.gql(query, { f: { projectUuid: t.world.project.uuid, nameExact: "consumer-visible" } }, t.world.tokens.projectMember);
    expect(res.data.resources.nodes).toEqual([
      { uuid: resource.uuid, name: "consumer-visible", project: { uuid: t.world.project.uuid }, offering: { uuid: t.world.offering.uuid } },
    ]);
    const unrelated = await t.gql(query, { f: { nameExact: "consumer-visible" } }, t.world.tokens.unrelated);
    expect(unrelated.data.resources.totalCount).toBe(0);
  });
});

describe("fields and filters", () => {
  it("Waldur's field names, uuids in hex, links absolute", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK", { name: "fields", backendId: "hpc_res1" });
    const res = await t.http("GET", `${BASE}/${resource.id}/`, { token: t.world.tokens.providerOwner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      url: `${t.baseUrl}${BASE}/${resource.uuid}/`,
      uuid: resource.uuid,
      name: "fields",
      state: "OK",
      backend_id: "hpc_res1",
      offering: `${t.baseUrl}/api/marketplace-provider-offerings/${t.world.offering.uuid}/`,
      offering_uuid: t.world.offering.uuid,
      offering_name: "HPC",
      offering_type: "Marketplace.Slurm",
      project: `${t.baseUrl}/api/projects/${t.world.project.uuid}/`,
      project_uuid: t.world.project.uuid,
      project_name: "Project",
      customer_uuid: t.world.consumer.uuid,
      customer_name: "Consumer Org",
      provider_uuid: t.world.provider.uuid,
      provider_name: "Provider Org",
      attributes: {},
      limits: {},
      current_usages: {},
      plan: "",
      end_date: null,
    });
    expect(res.body.created).toMatch(/Z$/);
  });

  it("filters as the site agent sends them, with ?field= selection", async () => {
    const ok = await makeResource(t.app.deps.db, t.world, "OK", { name: "Agent One", backendId: "agent-a" });
    const erred = await makeResource(t.app.deps.db, t.world, "ERRED", { name: "Agent Two", backendId: "agent-b" });
    await makeResource(t.app.deps.db, t.world, "TERMINATED", { name: "Agent Three", backendId: "agent-c" });
    await makeResource(t.app.deps.db, t.world, "OK", { name: "Agent Four", offeringId: other.id });
    const body = await list(`field=uuid&field=backend_id&field=state&offering_uuid=${t.world.offering.uuid}&state=OK&state=Erred&name=agent&page_size=100&o=name`);
    expect(body).toEqual([
      { uuid: ok.uuid, backend_id: "agent-a", state: "OK" },
      { uuid: erred.uuid, backend_id: "agent-b", state: "Erred" },
    ]);
  });

  const counts: Array<[string, () => string, number]> = [
    ["offering_uuid (comma-separated)", () => `name=filt&offering_uuid=${t.world.offering.uuid},${other.uuid}`, 2],
    ["project_uuid", () => `name=filt&project_uuid=${t.world.project.uuid}`, 2],
    ["customer_uuid", () => `name=filt&customer_uuid=${t.world.provider.uuid}`, 0],
    ["provider_uuid", () => `name=filt&provider_uuid=${t.world.provider.uuid}`, 2],
    ["state", () => `name=filt&state=Creating`, 1],
    ["backend_id", () => `name=filt&backend_id=filt-b`, 1],
  ];
  it("each filter narrows", async () => {
    await makeResource(t.app.deps.db, t.world, "CREATING", { name: "filt-1", backendId: "filt-a" });
    await makeResource(t.app.deps.db, t.world, "OK", { name: "filt-2", backendId: "filt-b", offeringId: other.id });
    for (const [name, query, expected] of counts) expect(await list(query()), name).toHaveLength(expected);
  });

  it("bad filter values are 400", async () => {
    expect(await list("state=Deleted")).toEqual({ state: ["Select a valid choice. Deleted is not one of the available choices."] });
    expect(await list("project_uuid=zz")).toEqual({ project_uuid: ["Enter a valid UUID."] });
    expect(await list("o=bogus")).toEqual({ o: ["Select a valid choice. bogus is not one of the available choices."] });
  });
});

describe("details/", () => {
  it("404 without a backend scope; the scope resource when there is one", async () => {
    const scope = await makeResource(t.app.deps.db, t.world, "OK", { name: "backend" });
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const token = t.world.tokens.providerOwner;
    expect((await t.http("GET", `${BASE}/${resource.uuid}/details/`, { token })).status).toBe(404);
    await t.app.deps.db.resource.update({ where: { id: resource.id }, data: { scopeId: scope.id } });
    const res = await t.http("GET", `${BASE}/${resource.uuid}/details/`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid: scope.uuid, name: "backend" });
    expect((await t.http("GET", `${BASE}/${resource.uuid}/details/`, { token: t.world.tokens.projectAdmin })).status).toBe(404);
  });
});
