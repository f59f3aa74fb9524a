import { Kind } from "graphql";
import { describe, expect, it } from "vitest";
import { REST_API } from "../src/modules.ts";
import { compileRoutes } from "./execute.ts";
import type { RouteSpec } from "./route.ts";
import { internalSchema } from "../src/schema.ts";
import { joinSurfaces, restFragment, type RestSurface } from "./surface.ts";

const route = (document: string): RouteSpec => ({ method: "GET", path: "/api/x/", summary: "x", document, kind: "object" });

describe("REST surfaces", () => {
  it("a route spreads a serializer another surface declares", () => {
    const declaring: RestSurface = { routes: [], fragments: [restFragment("MeRest", "User", "uuid username")] };
    const spreading: RestSurface = { routes: [route("query { me { ...MeRest } }")], fragments: [] };
    const [compiled] = compileRoutes(joinSurfaces([spreading, declaring]), internalSchema);
    const fragments = compiled.parsed.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);
    expect(fragments.map((fragment) => fragment.name.value)).toEqual(["MeRest"]);
  });

  it("refuses a serializer name two surfaces declare", () => {
    const surface: RestSurface = { routes: [], fragments: [restFragment("SameRest", "User", "uuid")] };
    expect(() => joinSurfaces([surface, surface])).toThrow("REST fragments declared twice: SameRest");
  });

  it("the served surfaces declare each serializer once", () => {
    expect(new Set(REST_API.fragments.map((fragment) => fragment.name)).size).toBe(REST_API.fragments.length);
  });
});
