import { describe, expect, it } from "vitest";
import { byId, pathId } from "../../rest-adapter/common-routes.ts";
import type { RestRequest } from "../../rest-adapter/route.ts";
import { uuidOf } from "./mutations.ts";

const UUID = "0f8fad5b-d9cb-469f-a165-70867728950e";
const request: RestRequest = { params: { uuid: UUID.replaceAll("-", "") }, query: new URLSearchParams(), body: {} };
const notFound = expect.objectContaining({ extensions: expect.objectContaining({ code: "NOT_FOUND" }) });

describe("objects are named by their node type", () => {
  it("the global id a REST path gives a mutation names the type it was given, and only that type takes it back", () => {
    const id = pathId("Order", request);
    expect(byId("Order")(request)).toEqual({ id });
    expect(uuidOf("Order", id)).toBe(UUID);
    expect(() => uuidOf("OfferingUser", id)).toThrow(notFound);
  });

  it("a misspelt type name does not compile; run anyway, it would refuse every id", () => {
    // @ts-expect-error: no node type of the graph is called "Ordr"
    expect(() => uuidOf("Ordr", pathId("Order", request))).toThrow(notFound);
  });
});
