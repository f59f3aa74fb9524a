import { describe, expect, it } from "vitest";
import { orderValue } from "../src/collections/contract.ts";
import { WALDUR, waldurOperation } from "../test/waldur/py-client-models.ts";
import { restParameters } from "./collection-query.ts";
import { REST_API } from "../src/modules.ts";

/** Every filter and ordering Waldur's published client sends to a list we serve is read by the list's contract. */

/** Not filters: paging, and `field`, which every list and retrieve reads outside the contracts. */
const NOT_FILTERS = new Set(["page", "page_size", "field", "o"]);

const lists = REST_API.routes.filter((route) => route.kind === "list" && route.method === "GET");

describe("Waldur's list parameters are all read", () => {
  it("the py-client contract covers the served lists", () => {
    expect(WALDUR.operations.filter((op) => op.operation.endsWith("_list")).length).toBeGreaterThan(15);
  });

  for (const route of lists) {
    const operation = waldurOperation(route.method, route.path);
    if (!operation) continue;
    describe(route.path, () => {
      it("has a contract", () => expect(route.contract, route.path).toBeDefined());

      it("reads every Waldur filter", () => {
        const read = new Set(restParameters(route.contract ?? { filters: {}, orderings: {}, defaultOrder: [], tiebreak: [] }).map((p) => p.name));
        const missing = Object.keys(operation.query).filter((name) => !NOT_FILTERS.has(name) && !read.has(name));
        expect(missing).toEqual([]);
      });

      it("orders by every Waldur `o` value", () => {
        const keys = (operation.query.o?.enum ?? []).map((value) => value.replace(/^-/, ""));
        const missing = [...new Set(keys)].filter((key) => !route.contract || !(key in route.contract.orderings));
        expect(missing).toEqual([]);
        if (route.contract) for (const key of keys) expect(orderValue(key, "asc")).toMatch(/^[A-Z0-9_]+_ASC$/);
      });
    });
  }
});
