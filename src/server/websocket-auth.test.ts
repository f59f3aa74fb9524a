import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newTokenKey, tokenDigest } from "../auth/secrets.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { closeOnInit } from "../../test/support/ws.ts";

let t: TestApp;
let inactiveKey: string;
let expiredKey: string;
beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const tokenFor = async (username: string, data: { isActive?: boolean; tokenLifetime?: number }, lastUsed = new Date()) => {
    const user = await db.user.create({ data: { username, ...data } });
    const key = newTokenKey();
    await db.authToken.create({ data: { keyDigest: tokenDigest(key), userId: user.id, lastUsed } });
    return key;
  };
  inactiveKey = await tokenFor("ws-auth-inactive", { isActive: false });
  expiredKey = await tokenFor("ws-auth-expired", { tokenLifetime: 60 }, new Date(Date.now() - 3_600_000));
});
afterAll(async () => {
  await t.close();
});

/** What GraphQL over HTTP answers `{ me { username } }` with this Authorization header (none when null). */
async function httpMessage(authorization: string | null) {
  const response = await t.http("POST", "/graphql", {
    body: { query: "{ me { username } }" },
    headers: authorization === null ? {} : { authorization },
  });
  return response.body.errors?.[0]?.message as string | undefined;
}

describe("connection_init refused: 4403 with the reason the HTTP path gives for the same credentials", () => {
  const cases: Array<[what: string, authorization: () => string | null, reason: string]> = [
    ["no token", () => null, "Authentication credentials were not provided."],
    ["another scheme (ignored, as over HTTP)", () => "Bearer abc", "Authentication credentials were not provided."],
    ["the keyword alone", () => "Token", "Invalid token. No credentials provided."],
    ["a token with spaces (GraphiQL's unedited placeholder)", () => "Token <your token>", "Invalid token. Token string should not contain spaces."],
    ["an unknown token", () => `Token ${"0".repeat(40)}`, "Invalid token."],
    ["a deactivated user's token", () => `Token ${inactiveKey}`, "User inactive or deleted."],
    ["an idle-expired token", () => `Token ${expiredKey}`, "Token has expired."],
  ];
  it.each(cases)("%s", async (_what, authorization, reason) => {
    const header = authorization();
    expect(await httpMessage(header)).toBe(reason);
    expect(await closeOnInit(t.port, header === null ? {} : { authorization: header })).toEqual({ code: 4403, reason, acknowledged: false });
  });

  it("no payload at all is refused like an empty one", async () => {
    expect(await closeOnInit(t.port)).toEqual({ code: 4403, reason: "Authentication credentials were not provided.", acknowledged: false });
  });
});

describe("connection_init accepted", () => {
  it("takes the token under `authorization` in any letter case", async () => {
    for (const name of ["authorization", "Authorization", "AUTHORIZATION"]) {
      expect(await closeOnInit(t.port, { [name]: `Token ${t.world.tokens.staff}` })).toMatchObject({ acknowledged: true });
    }
  });

  it("takes GraphiQL's Headers tab as it is sent: every header, the token among them", async () => {
    const headers = { "X-Request-Id": "graphiql-1", Authorization: `Token ${t.world.tokens.staff}` };
    expect(await closeOnInit(t.port, headers)).toMatchObject({ acknowledged: true });
  });
});
