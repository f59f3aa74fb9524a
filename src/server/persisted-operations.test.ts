import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { SubscriptionClients } from "../../test/support/ws.ts";
import { createApp } from "../app.ts";
import { loadSecuritySettings } from "../platform/settings/security-settings.ts";
import { StartupRefusal } from "../platform/settings/startup-refusal.ts";

const ME = "query Me { me { username } }";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const ME_ID = sha256(ME);
const UNLISTED = "{ me { username isStaff } }";

const dir = mkdtempSync(join(tmpdir(), "persisted-operations-"));
const manifestFile = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const MANIFEST = manifestFile("manifest.json", JSON.stringify({ [ME_ID]: ME }));

/** The two settings as start-up reads them from the environment. */
const persistedSettings = (env: NodeJS.ProcessEnv) => {
  const { persistedOperations, persistedOperationsOnly } = loadSecuritySettings(env);
  return { persistedOperations, persistedOperationsOnly };
};

let only: TestApp;
let optional: TestApp;
let plain: TestApp;
let sockets: SubscriptionClients;
beforeAll(async () => {
  [only, optional, plain] = await Promise.all([
    startTestApp(persistedSettings({ PERSISTED_OPERATIONS: MANIFEST, PERSISTED_OPERATIONS_ONLY: "true" })),
    startTestApp(persistedSettings({ PERSISTED_OPERATIONS: MANIFEST })),
    startTestApp(),
  ]);
  sockets = new SubscriptionClients(only.port);
});
afterAll(async () => {
  await sockets.closeAll();
  await Promise.all([only.close(), optional.close(), plain.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const post = (app: TestApp, body: unknown) => app.http("POST", "/graphql", { token: app.world.tokens.staff, body });
const byHash = (id: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: id } } });

function expectRefused(res: { status: number; body: any }, code: string) {
  expect(res.status).toBe(400);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0].extensions.code).toBe(code);
}

describe("PERSISTED_OPERATIONS and PERSISTED_OPERATIONS_ONLY", () => {
  it("are off when unset", () => {
    expect(persistedSettings({})).toEqual({ persistedOperations: undefined, persistedOperationsOnly: false });
  });

  it("read the manifest: an object of ids and documents, or Apollo's manifest format", () => {
    expect(persistedSettings({ PERSISTED_OPERATIONS: MANIFEST }).persistedOperations).toEqual(new Map([[ME_ID, ME]]));
    const apollo = manifestFile("apollo.json", JSON.stringify({ format: "apollo-persisted-query-manifest", version: 1, operations: [{ id: ME_ID, name: "Me", type: "query", body: ME }] }));
    expect(persistedSettings({ PERSISTED_OPERATIONS: apollo }).persistedOperations).toEqual(new Map([[ME_ID, ME]]));
  });

  const REFUSALS: Array<[string, () => NodeJS.ProcessEnv, RegExp]> = [
    ["a missing file", () => ({ PERSISTED_OPERATIONS: join(dir, "missing.json") }), /^PERSISTED_OPERATIONS: cannot read .*missing\.json \(ENOENT/],
    ["a directory", () => ({ PERSISTED_OPERATIONS: dir }), /^PERSISTED_OPERATIONS: cannot read .* \(EISDIR/],
    ["invalid JSON", () => ({ PERSISTED_OPERATIONS: manifestFile("broken.json", '{"a": ') }), /^PERSISTED_OPERATIONS: .*broken\.json is not valid JSON \(/],
    ["a JSON list", () => ({ PERSISTED_OPERATIONS: manifestFile("list.json", JSON.stringify([ME])) }), /is not a JSON object of operation ids and documents$/],
    ["an id without a document", () => ({ PERSISTED_OPERATIONS: manifestFile("number.json", JSON.stringify({ [ME_ID]: 1 })) }), new RegExp(`"${ME_ID}" is not an operation id with a document$`)],
    ["ONLY without a manifest", () => ({ PERSISTED_OPERATIONS_ONLY: "true" }), /^PERSISTED_OPERATIONS_ONLY=true needs PERSISTED_OPERATIONS/],
  ];
  for (const [what, env, message] of REFUSALS) {
    it(`refuse to start, in one line, on ${what}`, () => {
      let refusal: unknown;
      try {
        loadSecuritySettings(env());
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(StartupRefusal);
      expect(String(refusal)).not.toContain("\n");
      expect(refusal).toHaveProperty("message", expect.stringMatching(message));
    });
  }

  it("are read when the app starts: a missing manifest is a StartupRefusal before anything opens", async () => {
    vi.stubEnv("PERSISTED_OPERATIONS", join(dir, "missing.json"));
    vi.stubEnv("GATEWAY_DATA_DIR", join(dir, "data"));
    try {
      await expect(createApp()).rejects.toBeInstanceOf(StartupRefusal);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("PERSISTED_OPERATIONS_ONLY=true", () => {
  it("runs a listed document named by its sha256 hash (Apollo's persistedQuery extension)", async () => {
    const res = await post(only, byHash(ME_ID));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { me: { username: "staff" } } });
  });

  it("runs a listed document named by documentId (graphql-codegen's client preset), in a JSON body or on GET", async () => {
    expect((await post(only, { documentId: ME_ID })).body).toEqual({ data: { me: { username: "staff" } } });
    const get = await only.http("GET", `/graphql?documentId=${ME_ID}`, { token: only.world.tokens.staff, headers: { "x-graphql-yoga-csrf": "1" } });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ data: { me: { username: "staff" } } });
  });

  it("refuses a document sent as text, even a listed one, with 400 and PERSISTED_QUERY_ONLY", async () => {
    for (const query of [UNLISTED, ME]) {
      const res = await post(only, { query });
      expectRefused(res, "PERSISTED_QUERY_ONLY");
      expect(res.body.errors[0].message).toMatch(/^Only persisted operations run here/);
    }
  });

  it("refuses an unlisted hash with 400 and PERSISTED_QUERY_NOT_FOUND", async () => {
    expectRefused(await post(only, byHash(sha256(UNLISTED))), "PERSISTED_QUERY_NOT_FOUND");
    expectRefused(await post(only, { documentId: sha256(UNLISTED) }), "PERSISTED_QUERY_NOT_FOUND");
  });

  it("leaves the REST adapter's own documents running: reads and writes", async () => {
    const me = await only.http("GET", "/api/users/me/", { token: only.world.tokens.staff });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe("staff");
    const created = await only.http("POST", "/api/customers/", { token: only.world.tokens.staff, body: { name: "Persisted Ltd" } });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe("Persisted Ltd");
  });

  it("over graphql-ws runs a listed document's exact text and refuses any other", async () => {
    const client = sockets.open(only.world.tokens.staff);
    expect(await sockets.subscribe(client, ME).nextData()).toEqual({ me: { username: "staff" } });
    const refused = await sockets.subscribe(client, UNLISTED).failed();
    expect(refused).toEqual([{ message: expect.stringMatching(/^Only persisted operations run here/), extensions: { code: "PERSISTED_QUERY_ONLY" } }]);
  });
});

describe("PERSISTED_OPERATIONS without ONLY", () => {
  it("runs a listed hash and arbitrary documents alike", async () => {
    expect((await post(optional, byHash(ME_ID))).body).toEqual({ data: { me: { username: "staff" } } });
    expect((await post(optional, { query: UNLISTED })).body).toEqual({ data: { me: { username: "staff", isStaff: true } } });
  });

  it("answers an unlisted hash with PERSISTED_QUERY_NOT_FOUND (an Apollo client then sends the document)", async () => {
    expectRefused(await post(optional, byHash(sha256(UNLISTED))), "PERSISTED_QUERY_NOT_FOUND");
  });
});

describe("without PERSISTED_OPERATIONS", () => {
  it("runs arbitrary documents", async () => {
    const res = await post(plain, { query: UNLISTED });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { me: { username: "staff", isStaff: true } } });
  });
});
