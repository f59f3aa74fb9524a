import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { movableClock } from "../../test/support/clock.ts";
import { toHex } from "../platform/ids.ts";
import { GrantsCache } from "./grants-cache.ts";
import { newTokenKey, tokenDigest } from "./secrets.ts";

let t: TestApp;
/** The app's clock: real time, moved on by `advance` (the cached roles' expiry is tested with it). */
const clock = movableClock();
beforeAll(async () => {
  t = await startTestApp({ tokenCacheMs: 5_000 }, { now: clock.now });
});
afterAll(() => t.close());

let counter = 0;
async function newcomer() {
  counter += 1;
  const user = await t.app.deps.db.user.create({ data: { username: `cached-roles-${counter}` } });
  const token = newTokenKey();
  await t.app.deps.db.authToken.create({ data: { keyDigest: tokenDigest(token), userId: user.id } });
  return { id: user.id, uuid: toHex(user.id), token };
}

const provider = () => `/api/customers/${t.world.provider.uuid}/`;
const seesProvider = async (token: string) => (await t.http("GET", provider(), { token })).status;
const roleChange = (action: "add_user" | "delete_user", body: Record<string, unknown>) =>
  t.http("POST", `${provider()}${action}/`, { token: t.world.tokens.staff, body });

describe("the viewer's roles, cached for TOKEN_CACHE_MS", () => {
  it("a role granted or revoked through the gateway counts on the very next request, though the roles were cached", async () => {
    const user = await newcomer();
    expect(await seesProvider(user.token)).toBe(404);
    expect((await roleChange("add_user", { user: user.uuid, role: "CUSTOMER.OWNER" })).status).toBe(201);
    expect(await seesProvider(user.token)).toBe(200);
    expect((await roleChange("delete_user", { user: user.uuid, role: "CUSTOMER.OWNER" })).status).toBe(200);
    expect(await seesProvider(user.token)).toBe(404);
  });

  it("a grant that runs out while cached grants nothing from that moment", async () => {
    const user = await newcomer();
    const expiration = new Date(clock.now().getTime() + 2_000).toISOString();
    expect((await roleChange("add_user", { user: user.uuid, role: "CUSTOMER.OWNER", expiration_time: expiration })).status).toBe(201);
    expect(await seesProvider(user.token)).toBe(200);
    clock.advance(2_500);
    expect(await seesProvider(user.token)).toBe(404);
  });

  it("a grant changed in the database, not through the gateway, counts once the cache has let go", async () => {
    const user = await newcomer();
    expect((await roleChange("add_user", { user: user.uuid, role: "CUSTOMER.OWNER" })).status).toBe(201);
    expect(await seesProvider(user.token)).toBe(200);
    await t.app.deps.db.roleGrant.updateMany({ where: { userId: user.id }, data: { isActive: false } });
    expect(await seesProvider(user.token)).toBe(200);
    clock.advance(t.app.deps.config.tokenCacheMs + 1);
    expect(await seesProvider(user.token)).toBe(404);
  });
});

it("grants read before a change was recorded are not kept after it (the read may predate the change)", () => {
  const cache = new GrantsCache(5_000);
  const now = new Date();
  const grant = { role: "CUSTOMER.OWNER" as const, scopeType: "CUSTOMER" as const, scopeId: "c", projectIds: [], expirationTime: null };
  const readBeforeChange = cache.readStarts();
  cache.clear(); // a role change commits while the read is under way
  cache.set("user", [grant], now, readBeforeChange);
  expect(cache.get("user", now)).toBeUndefined();
  cache.set("user", [grant], now, cache.readStarts());
  expect(cache.get("user", now)).toEqual([grant]);
});
