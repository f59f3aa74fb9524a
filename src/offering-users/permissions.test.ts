import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type HttpResponse, type TestApp } from "../../test/support/app.ts";
import { PERSONAS, type Persona } from "../../test/support/world.ts";
import { toHex } from "../platform/ids.ts";

const BASE = "/api/marketplace-offering-users/";
type Caller = Persona | "anonymous";
const CALLERS: Caller[] = [...PERSONAS, "anonymous"];

/** other: a consumer-project member's record; own: the projectMember's own; hidden: on an offering closed to offering users. */
type Sample = "other" | "own" | "hidden";

interface Outcome {
  sees: Sample[] | 401;
  transition: number;
  update: number;
  create: number;
  delete: number;
}

const ALL: Sample[] = ["other", "own", "hidden"];
const PROVIDER_SIDE: Outcome = { sees: ["other", "own"], transition: 200, update: 200, create: 201, delete: 204 };
const READ_ONLY_PROVIDER: Outcome = { sees: ["other", "own"], transition: 403, update: 403, create: 403, delete: 403 };

/** What each caller gets (permissions.ts: CUSTOMER.OWNER/MANAGER and OFFERING.MANAGER hold the offering-user permissions). */
const OUTCOMES: Record<Caller, Outcome> = {
  staff: { sees: ALL, transition: 200, update: 200, create: 201, delete: 204 },
  support: { sees: ALL, transition: 403, update: 403, create: 403, delete: 403 },
  providerOwner: PROVIDER_SIDE,
  providerManager: PROVIDER_SIDE,
  providerSupport: READ_ONLY_PROVIDER,
  offeringManager: PROVIDER_SIDE,
  projectAdmin: READ_ONLY_PROVIDER,
  projectManager: READ_ONLY_PROVIDER,
  projectMember: { sees: ["own"], transition: 404, update: 404, create: 403, delete: 404 },
  unrelated: { sees: [], transition: 404, update: 404, create: 403, delete: 404 },
  anonymous: { sees: 401, transition: 401, update: 401, create: 401, delete: 401 },
};

const BODIES: Record<number, unknown> = {
  401: { detail: "Authentication credentials were not provided." },
  403: { detail: "You do not have permission to perform this action." },
  404: { detail: "Not found." },
};

let t: TestApp;
const records = {} as Record<Sample, { id: string; uuid: string }>;
let seq = 0;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  records.other = await t.world.offeringUser("CREATING");
  const own = await db.offeringUser.create({ data: { offeringId: t.world.offering.id, userId: t.world.users.projectMember.id, state: "CREATING" } });
  records.own = { id: own.id, uuid: toHex(own.id) };
  const closed = await db.offering.create({
    data: { customerId: t.world.provider.id, name: "Closed", type: "Marketplace.Slurm", state: "ACTIVE", pluginOptions: {} },
  });
  const hiddenUser = await db.user.create({ data: { username: "hidden-member" } });
  await db.roleGrant.create({ data: { userId: hiddenUser.id, role: "PROJECT.MEMBER", scopeType: "PROJECT", scopeId: t.world.project.id } });
  const hidden = await db.offeringUser.create({ data: { offeringId: closed.id, userId: hiddenUser.id, state: "CREATING" } });
  records.hidden = { id: hidden.id, uuid: toHex(hidden.id) };
});
afterAll(() => t.close());

const tokenOf = (caller: Caller) => (caller === "anonymous" ? undefined : t.world.tokens[caller]);
const call = (caller: Caller, method: string, path: string, body?: unknown) => t.http(method, path, { token: tokenOf(caller), body });

function expectRefusal(res: HttpResponse, status: number, body: unknown = BODIES[status]) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual(body);
  if (status === 401) expect(res.headers.get("www-authenticate")).toBe("Token");
}

const eventCount = (id: string) =>
  t.app.deps.db.event.count({ where: { scopes: { some: { scopeType: "OFFERING_USER", scopeId: id } } } });

describe("list visibility", () => {
  for (const caller of CALLERS) {
    const { sees } = OUTCOMES[caller];
    it(`${caller} ${sees === 401 ? "→ 401" : `sees ${sees.length ? sees.join(", ") : "nothing (200 [])"}`}`, async () => {
      const res = await call(caller, "GET", BASE);
      if (sees === 401) return expectRefusal(res, 401);
      expect(res.status).toBe(200);
      const byUuid = new Map(Object.entries(records).map(([key, r]) => [r.uuid, key]));
      expect((res.body as Array<{ uuid: string }>).map((ou) => byUuid.get(ou.uuid)).sort()).toEqual([...sees].sort());
      expect(res.headers.get("x-result-count")).toBe(String(sees.length));
    });
  }
});

describe("retrieve: what the list hides answers 404", () => {
  for (const caller of CALLERS) {
    it(caller, async () => {
      const { sees } = OUTCOMES[caller];
      for (const key of ALL) {
        const res = await call(caller, "GET", `${BASE}${records[key].uuid}/`);
        if (sees === 401) expectRefusal(res, 401);
        else if (sees.includes(key)) expect(res.status, key).toBe(200);
        else expectRefusal(res, 404);
      }
    });
  }
});

describe("transition (begin_creating) needs UPDATE_OFFERING_USER", () => {
  for (const caller of CALLERS) {
    const expected = OUTCOMES[caller].transition;
    it(`${caller} → ${expected}`, async () => {
      const ou = await t.world.offeringUser("CREATION_REQUESTED");
      const res = await call(caller, "POST", `${BASE}${ou.uuid}/begin_creating/`);
      const after = await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } });
      if (expected === 200) {
        expect(res.status).toBe(200);
        expect(after.state).toBe("CREATING");
        return;
      }
      expectRefusal(res, expected);
      expect(after.state).toBe("CREATION_REQUESTED");
      expect(await eventCount(ou.id)).toBe(0);
    });
  }

  it("a project member may see their own record but not move it (403)", async () => {
    const res = await call("projectMember", "POST", `${BASE}${records.own.uuid}/set_error_creating/`);
    expectRefusal(res, 403);
    expect((await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: records.own.id } })).state).toBe("CREATING");
  });
});

describe("update (PATCH username) and update_comments need UPDATE_OFFERING_USER", () => {
  for (const caller of CALLERS) {
    const expected = OUTCOMES[caller].update;
    it(`${caller} → ${expected}`, async () => {
      const ou = await t.world.offeringUser("CREATING");
      const patched = await call(caller, "PATCH", `${BASE}${ou.uuid}/`, { username: "pushed" });
      const commented = await call(caller, "PATCH", `${BASE}${ou.uuid}/update_comments/`, { service_provider_comment: "hi" });
      const after = await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } });
      if (expected === 200) {
        expect([patched.status, commented.status]).toEqual([200, 200]);
        expect(after).toMatchObject({ username: "pushed", state: "OK", serviceProviderComment: "hi" });
        return;
      }
      expectRefusal(patched, expected);
      expectRefusal(commented, expected);
      expect(after).toMatchObject({ username: null, state: "CREATING", serviceProviderComment: "" });
    });
  }
});

describe("create needs CREATE_OFFERING_USER on the offering or its customer", () => {
  for (const caller of CALLERS) {
    const expected = OUTCOMES[caller].create;
    it(`${caller} → ${expected}`, async () => {
      seq += 1;
      const user = await t.app.deps.db.user.create({ data: { username: `create-${seq}` } });
      const res = await call(caller, "POST", BASE, { offering_uuid: t.world.offering.uuid, user_uuid: toHex(user.id) });
      const rows = await t.app.deps.db.offeringUser.count({ where: { userId: user.id } });
      if (expected === 201) {
        expect(res.status).toBe(201);
        expect(rows).toBe(1);
        return;
      }
      expectRefusal(res, expected);
      expect(rows).toBe(0);
    });
  }
});

describe("delete needs DELETE_OFFERING_USER", () => {
  for (const caller of CALLERS) {
    const expected = OUTCOMES[caller].delete;
    it(`${caller} → ${expected}`, async () => {
      const ou = await t.world.offeringUser("OK");
      const res = await call(caller, "DELETE", `${BASE}${ou.uuid}/`);
      const exists = await t.app.deps.db.offeringUser.count({ where: { id: ou.id } });
      if (expected === 204) {
        expect(res.status).toBe(204);
        expect(exists).toBe(0);
        return;
      }
      expectRefusal(res, expected, expected === 403 ? { detail: "You do not have permission to delete this user." } : BODIES[expected]);
      expect(exists).toBe(1);
    });
  }
});

describe("bad credentials", () => {
  it("an unknown token → 401 Invalid token.", async () => {
    const res = await t.http("GET", BASE, { headers: { authorization: `Token ${"0".repeat(40)}` } });
    expectRefusal(res, 401, { detail: "Invalid token." });
  });
});
