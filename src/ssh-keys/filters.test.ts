import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { responseProblems, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { makeResource, userWithRoles } from "../../test/support/order-fixtures.ts";
import { toHex } from "../platform/ids.ts";
import { sha512Fingerprint } from "./openssh.ts";
import { ed25519Key, rsaKey } from "../../test/support/ssh-test-keys.ts";

const KEYS = "/api/keys/";
type Key = "k1" | "k2" | "k3";

let t: TestApp;
let staff: string;
const ids = {} as Record<Key, string>;
const keys = {} as Record<Key, { fingerprint_md5: string; fingerprint_sha256: string; fingerprint_sha512: string; public_key: string }>;
const ref = {} as { ann: string; ben: string };

/** Ann's "Laptop" and "laptop-old", and Ben's "Desk", a project member of a live resource of the world's provider. */
beforeAll(async () => {
  t = await startTestApp();
  staff = t.world.tokens.staff;
  const db = t.app.deps.db;
  await makeResource(db, t.world, "OK");
  const ann = await userWithRoles(db, []);
  const ben = await userWithRoles(db, [["PROJECT.MEMBER", "PROJECT", t.world.project.id]]);
  Object.assign(ref, { ann: toHex(ann.id), ben: toHex(ben.id) });
  const rows: Array<[Key, string, string, string]> = [
    ["k1", ann.token, "Laptop", "2024-01-01T00:00:00Z"],
    ["k2", ann.token, "laptop-old", "2024-02-01T00:00:00Z"],
    ["k3", ben.token, "Desk", "2024-03-01T00:00:00Z"],
  ];
  for (const [key, token, name, created] of rows) {
    const res = await t.http("POST", KEYS, { token, body: { public_key: key === "k3" ? rsaKey(name) : ed25519Key(name), name } });
    expect(res.status, res.text).toBe(201);
    await db.sshKey.updateMany({ where: { name }, data: { created: new Date(created) } });
    ids[key] = res.body.uuid;
    keys[key] = res.body;
  }
});
afterAll(() => t.close());

const keyOf = (uuid: string) => (Object.keys(ids) as Key[]).find((key) => ids[key] === uuid) ?? uuid;

async function list(query: string, path = KEYS) {
  const res = await t.http("GET", `${path}?${query}`, { token: staff });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return (res.body as Array<{ uuid: string }>).map((row) => keyOf(row.uuid));
}

describe("SSH key filters (default order: name)", () => {
  const cases: Array<[string, () => string, Key[]]> = [
    ["no filter", () => "", ["k3", "k1", "k2"]],
    ["name contains, case-insensitive", () => "name=laptop", ["k1", "k2"]],
    ["name_exact", () => "name_exact=Laptop", ["k1"]],
    ["name_exact is case-sensitive", () => "name_exact=laptop", []],
    ["user_uuid", () => `user_uuid=${ref.ben}`, ["k3"]],
    ["fingerprint_md5", () => `fingerprint_md5=${keys.k2.fingerprint_md5}`, ["k2"]],
    ["fingerprint_sha256", () => `fingerprint_sha256=${encodeURIComponent(keys.k3.fingerprint_sha256)}`, ["k3"]],
    ["fingerprint_sha512 (rsa)", () => `fingerprint_sha512=${encodeURIComponent(keys.k3.fingerprint_sha512)}`, ["k3"]],
    ["fingerprint_sha512 (ed25519)", () => `fingerprint_sha512=${encodeURIComponent(keys.k1.fingerprint_sha512)}`, ["k1"]],
    ["fingerprint_sha512 of no key", () => `fingerprint_sha512=${encodeURIComponent(sha512Fingerprint(ed25519Key()))}`, []],
    ["is_shared=false: every key", () => "is_shared=false", ["k3", "k1", "k2"]],
    ["is_shared=true: no key is shared", () => "is_shared=true", []],
    ["created (at or after)", () => "created=2024-02-01", ["k3", "k2"]],
    ["created_before", () => "created_before=2024-02-01", ["k1"]],
    ["modified: a key never changes after it is added", () => "modified=2024-02-15", ["k3"]],
    ["modified_before", () => "modified_before=2024-02-15T00:00:00Z", ["k1", "k2"]],
    ["o=-name", () => "o=-name", ["k2", "k1", "k3"]],
  ];
  for (const [name, query, expected] of cases) it(name, async () => expect(await list(query())).toEqual(expected));

  it("a provider's keys/ reads the same filters", async () => {
    const path = `/api/marketplace-service-providers/${t.world.serviceProvider.uuid}/keys/`;
    expect(await list("", path)).toEqual(["k3"]);
    expect(await list("is_shared=true", path)).toEqual([]);
    expect(await list(`fingerprint_sha512=${encodeURIComponent(keys.k3.fingerprint_sha512)}&name_exact=Desk`, path)).toEqual(["k3"]);
    expect(await list("name=lap", path)).toEqual([]);
  });

  it("bad values are 400s naming the parameter", async () => {
    const bad = async (query: string) => (await t.http("GET", `${KEYS}?${query}`, { token: staff })).body;
    expect(await bad("is_shared=maybe")).toEqual({ is_shared: ["Enter a valid boolean."] });
    expect(await bad("created_before=yesterday")).toEqual({ created_before: ["Enter a valid date/time."] });
  });

  it("over GraphQL", async () => {
    const result = await t.gql(
      `query($f: SshKeyFilter) { sshKeys(filter: $f) { nodes { uuid fingerprintSha512 } } }`,
      { f: { fingerprintSha512: keys.k1.fingerprint_sha512, createdBefore: "2024-01-02T00:00:00Z" } },
      staff,
    );
    expect(result).toEqual({ data: { sshKeys: { nodes: [{ uuid: ids.k1, fingerprintSha512: keys.k1.fingerprint_sha512 }] } } });
  });
});

describe("responses parse with Waldur's SshKey model", () => {
  it("create, list, retrieve and a provider's keys", async () => {
    const created = await t.http("POST", KEYS, { token: t.world.tokens.projectMember, body: { public_key: ed25519Key("parse") } });
    expect(responseProblems(waldurOperation("POST", "/api/keys/")!, created.body)).toEqual([]);
    expect(created.body.fingerprint_sha512).toBe(sha512Fingerprint(created.body.public_key));
    const listed = await t.http("GET", KEYS, { token: staff });
    expect(responseProblems(waldurOperation("GET", "/api/keys/")!, listed.body)).toEqual([]);
    const one = await t.http("GET", `${KEYS}${ids.k3}/`, { token: staff });
    expect(responseProblems(waldurOperation("GET", "/api/keys/:uuid/")!, one.body)).toEqual([]);
    const provider = await t.http("GET", `/api/marketplace-service-providers/${t.world.serviceProvider.uuid}/keys/`, { token: staff });
    expect(provider.body.length).toBeGreaterThan(0);
    expect(responseProblems(waldurOperation("GET", "/api/marketplace-service-providers/:uuid/keys/")!, provider.body)).toEqual([]);
  });
});
