import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test/support/app.ts";

const PUBLIC_URL = "https://gw.example.org";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ publicUrl: PUBLIC_URL });
});
afterAll(() => t.close());

describe("with PUBLIC_URL set", () => {
  it("url fields use PUBLIC_URL instead of the request host", async () => {
    const res = await t.http("GET", `/api/marketplace-provider-offerings/${t.world.offering.uuid}/`, { token: t.world.tokens.staff });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(`${PUBLIC_URL}/api/marketplace-provider-offerings/${t.world.offering.uuid}/`);
    expect(res.body.customer).toBe(`${PUBLIC_URL}/api/customers/${t.world.provider.uuid}/`);
    expect(JSON.stringify(res.body)).not.toContain("127.0.0.1");
  });

  it("list items and the Link header use PUBLIC_URL", async () => {
    const res = await t.http("GET", "/api/users/?page_size=3&page=2", { token: t.world.tokens.staff });
    expect(res.status).toBe(200);
    for (const user of res.body) expect(user.url).toBe(`${PUBLIC_URL}/api/users/${user.uuid}/`);
    const link = res.headers.get("link")!;
    expect(link).toContain(`<${PUBLIC_URL}/api/users/?page_size=3>; rel="first"`);
    expect(link).toContain(`<${PUBLIC_URL}/api/users/?page_size=3>; rel="prev"`);
    expect(link).toContain(`<${PUBLIC_URL}/api/users/?page=3&page_size=3>; rel="next"`);
    expect(link).not.toContain("127.0.0.1");
  });

  it("hyperlinks built from PUBLIC_URL are accepted back as input", async () => {
    const customer = await t.http("GET", `/api/customers/${t.world.consumer.uuid}/`, { token: t.world.tokens.staff });
    const project = await t.http("POST", "/api/projects/", {
      token: t.world.tokens.staff,
      body: { customer: customer.body.url, name: "Via public URL" },
    });
    expect(project.status).toBe(201);
    expect(project.body.customer).toBe(customer.body.url);
    expect(project.body.url).toMatch(new RegExp(`^${PUBLIC_URL}/api/projects/[0-9a-f]{32}/$`));
  });
});
