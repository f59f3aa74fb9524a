import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe("filters on a resource's backend metadata", () => {
  it("a value no stored JSON can hold (a lone UTF-16 surrogate) matches nothing instead of failing", async () => {
    for (const filter of [{ runtimeState: "ACTIVE\udc00" }, { flavorName: "\ud800" }, { imageName: "x\udfff" }]) {
      const res = await t.gql(`query($f: ResourceFilter) { resources(filter: $f) { totalCount } }`, { f: filter }, t.world.tokens.staff);
      expect(res.errors, JSON.stringify(filter)).toBeUndefined();
      expect(res.data.resources.totalCount).toBe(0);
    }
  });
});
