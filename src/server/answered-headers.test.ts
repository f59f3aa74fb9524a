import { inspect } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

const ALLOWED = "https://app.example.org";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ corsOrigins: [ALLOWED] });
});
afterAll(() => t.close());

/** @hono/node-server writes a lightweight Response's string body whole; a full one it reads as a stream. */
const stillLightweight = (response: Response) => inspect(response).startsWith("Response (lightweight)") && !inspect(response).includes("nativeResponse: Response");

it.each([
  ["a REST answer", () => new Request(`${t.baseUrl}/api/customers/`, { headers: { origin: ALLOWED, authorization: `Token ${t.world.tokens.staff}` } })],
  ["a REST error", () => new Request(`${t.baseUrl}/api/customers/`, { headers: { origin: ALLOWED } })],
  [
    "a GraphQL answer",
    () =>
      new Request(`${t.baseUrl}/graphql`, {
        method: "POST",
        headers: { origin: ALLOWED, "content-type": "application/json", authorization: `Token ${t.world.tokens.staff}` },
        body: JSON.stringify({ query: "{ me { username } }" }),
      }),
  ],
])("%s gets the security and CORS headers and stays a lightweight response, its body written whole", async (_name, request) => {
  const response = await t.app.fetch(request());
  expect(stillLightweight(response)).toBe(true);
  expect(Object.fromEntries(response.headers)).toMatchObject({
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "content-security-policy": expect.stringContaining("default-src 'none'"),
    "access-control-allow-origin": ALLOWED,
    "access-control-expose-headers": expect.stringContaining("X-Result-Count"),
    vary: expect.stringContaining("Origin"),
  });
  expect(await response.json()).toBeTruthy();
});
