/**
 * A filter group declared once and spread into several lists' contracts (byOffering, byAllocation, byTimestamps) means
 * the same in each list, on data built to be split by it (test/support/split-data.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test/support/app.ts";
import { uuidListPath, uuidsOf } from "../test/support/list-uuids.ts";
import { buildSplitData, CUTOFF, type SplitData } from "../test/support/split-data.ts";

/** A well-formed uuid of nothing. */
const NO_SUCH_UUID = "0123456789ab4def8123456789abcdef";

type Filter = Record<string, string>;
const NO_FILTER: Filter = {};

let t: TestApp;
let d: SplitData;
beforeAll(async () => {
  t = await startTestApp();
  d = await buildSplitData(t);
});
afterAll(() => t.close());

const uuids = async (path: string, filter: Filter, token: string) =>
  uuidsOf(await t.http<Array<{ uuid: string }>>("GET", uuidListPath(path, filter), { token }), `${path} ${JSON.stringify(filter)}`);

describe("a filter group spread into several lists means the same in each", () => {
  const staff = () => d.world.tokens.staff;
  const BY_OFFERING = ["/api/marketplace-offering-users/", "/api/marketplace-orders/", "/api/marketplace-provider-resources/"];
  it.each(BY_OFFERING)("%s: offering_slug is trimmed, comma-split, its blanks left out (src/directory/offering-filters.ts)", async (path) => {
    const plain = await uuids(path, { offering_slug: d.storage.slug }, staff());
    expect(plain.length).toBeGreaterThan(0);
    expect(await uuids(path, { offering_slug: ` ${d.storage.slug} ,, ` }, staff())).toEqual(plain);
    expect(await uuids(path, { offering_slug: " , " }, staff())).toEqual([]);
  });
  it.each(BY_OFFERING)("%s: offering_uuid and offering (URL) keep the records of that offering (src/directory/offering-filters.ts)", async (path) => {
    const ofStorage = await uuids(path, { offering_slug: d.storage.slug }, staff());
    expect(ofStorage.length).toBeGreaterThan(0);
    expect(await uuids(path, { offering_uuid: d.storage.uuid }, staff())).toEqual(ofStorage);
    expect(await uuids(path, { offering: d.url("marketplace-provider-offerings", d.storage) }, staff())).toEqual(ofStorage);
  });

  const BY_ALLOCATION = ["/api/marketplace-orders/", "/api/marketplace-provider-resources/"];
  it.each(BY_ALLOCATION)("%s: customer_uuid keeps its projects' records, category_uuid none (src/directory/allocation-filters.ts)", async (path) => {
    // The Vintage Lab has one project.
    const ofProject = await uuids(path, { project_uuid: d.vintageProject.uuid }, staff());
    expect(ofProject.length).toBeGreaterThan(0);
    expect(await uuids(path, { customer_uuid: d.vintageLab.uuid }, staff())).toEqual(ofProject);
    expect(await uuids(path, { category_uuid: NO_SUCH_UUID }, staff())).toEqual([]);
  });

  const BY_TIMESTAMPS = [...BY_OFFERING, "/api/projects/", "/api/marketplace-provider-offerings/"];
  /** The instants (ms) at which a filtered list's records were created or last modified (NaN where it does not show them). */
  async function instants(path: string, stamp: string, filter: Filter) {
    const res = await t.http<Array<Record<string, string>>>("GET", `${path}?${new URLSearchParams({ ...filter, page_size: "300", field: stamp })}`, {
      token: staff(),
    });
    expect(res.status).toBe(200);
    return res.body.map((item) => Date.parse(item[stamp]));
  }
  it.each(BY_TIMESTAMPS)("%s: created and modified keep the records at or after the instant, their _before the others (src/collections/timestamp-filters.ts)", async (path) => {
    const cutoff = Date.parse(CUTOFF);
    for (const stamp of ["created", "modified"]) {
      const all = await instants(path, stamp, NO_FILTER);
      const atOrAfter = await instants(path, stamp, { [stamp]: CUTOFF });
      const before = await instants(path, stamp, { [`${stamp}_before`]: CUTOFF });
      expect(atOrAfter.length * before.length, `${stamp} splits ${path}`).toBeGreaterThan(0);
      expect(atOrAfter.length + before.length).toBe(all.length);
      // Projects and offerings do not show when they were modified: their split is checked by its sizes alone.
      if (all.every(Number.isFinite)) expect(atOrAfter.every((at) => at >= cutoff) && before.every((at) => at < cutoff), stamp).toBe(true);
    }
  });
  it("offering users also read the spec's created_after and modified_after, as created and modified", async () => {
    const path = "/api/marketplace-offering-users/";
    for (const stamp of ["created", "modified"]) {
      expect(await uuids(path, { [`${stamp}_after`]: CUTOFF }, staff())).toEqual(await uuids(path, { [stamp]: CUTOFF }, staff()));
    }
  });
});
