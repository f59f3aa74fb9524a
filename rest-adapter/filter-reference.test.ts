import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { filterReference } from "./filter-reference.ts";
import { REST_API } from "../src/modules.ts";

it("docs/rest-filters.md is printed from the contracts (run `npm run docs:filters` after changing one)", () => {
  const committed = readFileSync(new URL("../docs/rest-filters.md", import.meta.url), "utf8");
  expect(committed).toBe(filterReference(REST_API.routes));
});

it("lists every filter parameter of a contract, with its GraphQL field", () => {
  const reference = filterReference(REST_API.routes);
  expect(reference).toContain("## `/api/marketplace-offering-users/`");
  expect(reference).toMatch(/\| `offering` \| URL of \/api\/marketplace-provider-offerings\/… \(or its uuid\) \| `offeringUuid` \|/);
  expect(reference).toContain("default `username`");
});
