import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe("GET /", () => {
  it("a browser gets a page linking the REST root, its documentation and GraphQL", async () => {
    const res = await t.http("GET", "/", { headers: { accept: "text/html,application/xhtml+xml" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const links = [...res.text.matchAll(/href="([^"]+)"/g)].map(([, href]) => href);
    expect(links).toEqual(expect.arrayContaining(["/api/", "/api/docs/", "/api/schema/"]));
    for (const href of links) expect((await t.http("GET", href, { headers: { accept: "text/html" } })).status, href).toBe(200);
  });

  it("anything else gets the entry points as JSON", async () => {
    const res = await t.http("GET", "/");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      rest: `${t.baseUrl}/api/`,
      docs: `${t.baseUrl}/api/docs/`,
      openapi: `${t.baseUrl}/api/schema/`,
      graphql: `${t.baseUrl}/graphql`,
    });
  });
});
