import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import type { Persona } from "../../test/support/world.ts";
import { userWithRoles } from "../../test/support/order-fixtures.ts";
import { toHex } from "../platform/ids.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { parsePublicKey, sha512Fingerprint } from "./openssh.ts";
import { ecdsaKey, ed25519Key, rsaKey } from "../../test/support/ssh-test-keys.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const KEYS = "/api/keys/";
const FIELDS = ["fingerprint_md5", "fingerprint_sha256", "fingerprint_sha512", "is_shared", "name", "public_key", "type", "url", "user_uuid", "uuid"];
const addKey = (token: string, body: Record<string, unknown>) => t.http("POST", KEYS, { token, body });
const uuids = (rows: Array<{ uuid: string }>) => rows.map((r) => r.uuid).sort();

function hasSshKeygen() {
  try {
    execFileSync("ssh-keygen", ["-?"], { stdio: "ignore" });
  } catch (error) {
    return (error as { code?: string }).code !== "ENOENT";
  }
  return true;
}

/** ssh-keygen's own fingerprint of a public key line, in `hash`. */
function sshKeygenFingerprint(line: string, hash: "md5" | "sha256" | "sha512") {
  const file = join(mkdtempSync(join(tmpdir(), "ssh-key-")), "key.pub");
  writeFileSync(file, `${line}\n`);
  return execFileSync("ssh-keygen", ["-l", "-E", hash, "-f", file], { encoding: "utf8" }).split(" ")[1];
}

describe("OpenSSH public keys", () => {
  it.each([
    ["ssh-ed25519", ed25519Key],
    ["ssh-rsa", rsaKey],
    ["ecdsa-sha2-nistp256", ecdsaKey],
  ] as const)("parses %s and fingerprints it as ssh-keygen does", (type, make) => {
    const line = make("me@example.org");
    const parsed = parsePublicKey(`  ${line}\n`);
    if (!("key" in parsed)) throw new Error(parsed.problem);
    expect(parsed.key).toMatchObject({ type, comment: "me@example.org", publicKey: line });
    expect(parsed.key.fingerprintMd5).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    expect(parsed.key.fingerprintSha256).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    if (!hasSshKeygen()) return;
    expect(parsed.key.fingerprintSha256).toBe(sshKeygenFingerprint(line, "sha256"));
    expect(`MD5:${parsed.key.fingerprintMd5}`).toBe(sshKeygenFingerprint(line, "md5"));
    expect(sha512Fingerprint(`  ${line}\n`)).toBe(sshKeygenFingerprint(line, "sha512"));
  });

  const ed25519Body = () => ed25519Key().split(" ")[1];
  it.each([
    ["an unsupported type", () => `ssh-dss ${ed25519Body()}`, /^unsupported key type "ssh-dss"/],
    ["no body", () => "ssh-ed25519", /not valid base64/],
    ["a body that is not base64", () => "ssh-ed25519 AAAA$$$$", /not valid base64/],
    ["a body of another type", () => `ssh-rsa ${ed25519Body()}`, /does not encode a ssh-rsa key/],
    ["a body with only the type", () => `ssh-ed25519 ${Buffer.from("\0\0\0\x0bssh-ed25519").toString("base64")}`, /no key material/],
    ["a truncated length prefix", () => "ssh-ed25519 AAA=", /does not encode/],
    ["two lines", () => `${ed25519Key()}\n${ed25519Key()}`, /single line/],
  ])("rejects %s", (_name, make, problem) => {
    const parsed = parsePublicKey(make());
    expect("problem" in parsed && parsed.problem).toMatch(problem);
  });
});

describe("/api/keys/", () => {
  it("adds a key: 201 with Waldur's fields, the comment as default name, the caller as owner", async () => {
    const line = ed25519Key("laptop");
    const res = await addKey(t.world.tokens.projectMember, { public_key: line });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(FIELDS);
    const parsed = parsePublicKey(line) as { key: { fingerprintMd5: string; fingerprintSha256: string } };
    expect(res.body).toEqual({
      url: `${t.baseUrl}/api/keys/${res.body.uuid}/`,
      uuid: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: "laptop",
      public_key: line,
      type: "ssh-ed25519",
      fingerprint_md5: parsed.key.fingerprintMd5,
      fingerprint_sha256: parsed.key.fingerprintSha256,
      fingerprint_sha512: sha512Fingerprint(line),
      is_shared: false,
      user_uuid: t.world.users.projectMember.uuid,
    });
    const named = await addKey(t.world.tokens.projectMember, { public_key: rsaKey("ignored"), name: "work" });
    expect(named).toMatchObject({ status: 201, body: { name: "work", type: "ssh-rsa" } });
  });

  it("rejects invalid keys, missing fields and duplicates of the caller's own keys with 400", async () => {
    const token = t.world.tokens.projectManager;
    const invalid = await addKey(token, { public_key: "ssh-rsa AAAAB3NzaC1yc2E= nope" });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ public_key: [expect.stringMatching(/^Key is not valid: /)] });
    expect((await addKey(token, { public_key: "garbage" })).body.public_key[0]).toMatch(/^Key is not valid: unsupported key type/);
    expect((await addKey(token, {})).body).toEqual({ public_key: ["This field is required."] });
    expect((await addKey(token, { public_key: 5, name: [] })).body).toEqual({ public_key: ["Not a valid string."], name: ["Not a valid string."] });
    expect((await addKey(token, { public_key: ed25519Key(), name: "n".repeat(151) })).body).toEqual({ name: ["Ensure this field has no more than 150 characters."] });
    const line = ed25519Key();
    expect((await addKey(token, { public_key: line })).status).toBe(201);
    const again = await addKey(token, { public_key: `${line.split(" ").slice(0, 2).join(" ")} another comment` });
    expect(again).toMatchObject({ status: 400, body: { public_key: ["Key with same fingerprint already exists."] } });
    expect((await addKey(t.world.tokens.projectAdmin, { public_key: line })).status).toBe(201);
    const racer = ecdsaKey();
    const racing = await Promise.all(Array.from({ length: 4 }, () => addKey(token, { public_key: racer })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
  });

  it("lets staff add a key for another user; others may not", async () => {
    const owner = t.world.users.unrelated;
    const userUrl = `${t.baseUrl}/api/users/${owner.uuid}/`;
    const byStaff = await addKey(t.world.tokens.staff, { public_key: ed25519Key("for unrelated"), user: userUrl });
    expect(byStaff).toMatchObject({ status: 201, body: { user_uuid: owner.uuid } });
    expect((await addKey(t.world.tokens.providerOwner, { public_key: ed25519Key(), user: owner.uuid })).status).toBe(403);
    expect((await addKey(t.world.tokens.providerOwner, { public_key: ed25519Key(), user: t.world.users.providerOwner.uuid })).status).toBe(201);
    const unknown = await addKey(t.world.tokens.staff, { public_key: ed25519Key(), user: "0".repeat(32) });
    expect(unknown).toMatchObject({ status: 400, body: { user: ["Invalid hyperlink - Object does not exist."] } });
    expect((await t.http("POST", KEYS, { body: { public_key: ed25519Key() } })).status).toBe(401);
  });

  it("shows each user their own keys, staff and support all; filters and pages", async () => {
    const alice = await userWithRoles(t.app.deps.db, []);
    const bob = await userWithRoles(t.app.deps.db, []);
    const aliceKeys = await Promise.all(["a1", "a2", "a3"].map((name) => addKey(alice.token, { public_key: ed25519Key(name) })));
    const bobKey = await addKey(bob.token, { public_key: rsaKey("b1") });
    const list = (token: string, query = "") => t.http("GET", `${KEYS}?${query}`, { token });
    expect(uuids((await list(alice.token)).body)).toEqual(uuids(aliceKeys.map((k) => k.body)));
    expect(uuids((await list(bob.token)).body)).toEqual([bobKey.body.uuid]);
    for (const persona of ["staff", "support"] as const) {
      const seen = await list(t.world.tokens[persona], `user_uuid=${toHex(alice.id)}`);
      expect(uuids(seen.body)).toEqual(uuids(aliceKeys.map((k) => k.body)));
    }
    expect((await list(bob.token, `user_uuid=${toHex(alice.id)}`)).body).toEqual([]);
    const page = await list(alice.token, "page_size=2&page=2");
    expect(page.headers.get("x-result-count")).toBe("3");
    expect(page.body.map((k: { name: string }) => k.name)).toEqual(["a3"]);
    expect((await list(alice.token, "o=-name")).body.map((k: { name: string }) => k.name)).toEqual(["a3", "a2", "a1"]);
    expect((await list(alice.token, "name=a2")).body.map((k: { name: string }) => k.name)).toEqual(["a2"]);
    const [first] = aliceKeys.map((k) => k.body);
    expect(uuids((await list(alice.token, `fingerprint_md5=${first.fingerprint_md5}`)).body)).toEqual([first.uuid]);
    expect(uuids((await list(alice.token, `fingerprint_sha256=${encodeURIComponent(first.fingerprint_sha256)}`)).body)).toEqual([first.uuid]);
    expect((await list(alice.token, "user_uuid=nope")).status).toBe(400);
    expect((await list(alice.token, "o=bogus")).status).toBe(400);
    expect((await t.http("GET", KEYS)).status).toBe(401);
  });

  it("retrieves for the owner, staff and support (others 404); deletes for the owner or staff (support 403), with events", async () => {
    const owner = await userWithRoles(t.app.deps.db, []);
    const key = (await addKey(owner.token, { public_key: ed25519Key("doomed") })).body;
    const path = `${KEYS}${key.uuid}/`;
    const statusAs = async (method: string, token: string) => (await t.http(method, path, { token })).status;
    expect(await statusAs("GET", owner.token)).toBe(200);
    expect(await statusAs("GET", t.world.tokens.support)).toBe(200);
    expect(await statusAs("GET", t.world.tokens.providerOwner)).toBe(404);
    expect(await statusAs("DELETE", t.world.tokens.providerOwner)).toBe(404);
    expect(await statusAs("DELETE", t.world.tokens.support)).toBe(403);
    expect(await statusAs("PATCH", owner.token)).toBe(405);
    expect(await statusAs("DELETE", owner.token)).toBe(204);
    expect(await statusAs("GET", owner.token)).toBe(404);
    const byStaff = (await addKey(owner.token, { public_key: ed25519Key("second") })).body;
    expect(await statusAs("DELETE", t.world.tokens.staff)).toBe(404);
    expect((await t.http("DELETE", `${KEYS}${byStaff.uuid}/`, { token: t.world.tokens.staff })).status).toBe(204);
    const events = await t.http("GET", `/api/events/?user_uuid=${toHex(owner.id)}&o=created`, { token: t.world.tokens.staff });
    expect(events.body.map((e: { event_type: string }) => e.event_type)).toEqual([
      "ssh_key_creation_succeeded",
      "ssh_key_deletion_succeeded",
      "ssh_key_creation_succeeded",
      "ssh_key_deletion_succeeded",
    ]);
    expect(events.body[0]).toMatchObject({ message: `SSH key doomed has been created for user ${owner.username}.`, context: { ssh_key_uuid: key.uuid } });
  });
});

describe("GET /api/marketplace-service-providers/{uuid}/keys/", () => {
  const db = () => t.app.deps.db;
  const path = () => `/api/marketplace-service-providers/${t.world.serviceProvider.uuid}/keys/`;
  let served: { project: string; resource: string; expected: string[] };

  /** A project of its own with members, expired and revoked grants, each holding a key; returns the members' key uuids. */
  async function projectWithMembers(name: string) {
    const project = await db().project.create({ data: { customerId: t.world.consumer.id, name } });
    const member = await userWithRoles(db(), [["PROJECT.MEMBER", "PROJECT", project.id]]);
    const admin = await userWithRoles(db(), [["PROJECT.ADMIN", "PROJECT", project.id]]);
    const expired = await userWithRoles(db(), []);
    const revoked = await userWithRoles(db(), []);
    await db().roleGrant.create({ data: { userId: expired.id, role: "PROJECT.MEMBER", scopeType: "PROJECT", scopeId: project.id, expirationTime: new Date(Date.now() - 60_000) } });
    await db().roleGrant.create({ data: { userId: revoked.id, role: "PROJECT.MEMBER", scopeType: "PROJECT", scopeId: project.id, isActive: false } });
    const keyOf = async (user: { token: string }) => (await addKey(user.token, { public_key: ed25519Key() })).body.uuid as string;
    const memberKeys = [await keyOf(member), await keyOf(member), await keyOf(admin)];
    await keyOf(expired);
    await keyOf(revoked);
    return { project: project.id, memberKeys };
  }

  beforeAll(async () => {
    const live = await projectWithMembers("Served");
    const resource = await db().resource.create({ data: { name: "served", state: "OK", offeringId: t.world.offering.id, projectId: live.project } });
    await db().resource.create({ data: { name: "gone", state: "TERMINATED", offeringId: t.world.offering.id, projectId: live.project } });
    const onlyTerminated = await projectWithMembers("Only terminated");
    await db().resource.create({ data: { name: "old", state: "TERMINATED", offeringId: t.world.offering.id, projectId: onlyTerminated.project } });
    const elsewhere = await projectWithMembers("Other provider");
    const otherProvider = await db().customer.create({ data: { name: "Other provider" } });
    const otherOffering = await db().offering.create({ data: { customerId: otherProvider.id, name: "Other", type: "Marketplace.Slurm", state: "ACTIVE" } });
    await db().resource.create({ data: { name: "theirs", state: "OK", offeringId: otherOffering.id, projectId: elsewhere.project } });
    served = { project: live.project, resource: resource.id, expected: live.memberKeys.sort() };
  });

  it("lists exactly the keys of active members of projects with a live resource of the provider", async () => {
    const res = await t.http("GET", path(), { token: t.world.tokens.providerOwner });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-result-count")).toBe("3");
    expect(uuids(res.body)).toEqual(served.expected);
    expect(Object.keys(res.body[0]).sort()).toEqual(FIELDS);
    const page = await t.http("GET", `${path()}?page_size=2&page=2`, { token: t.world.tokens.providerOwner });
    expect(page.body).toHaveLength(1);
    expect(page.headers.get("link")).toContain('rel="first"');
  });

  it.each([
    ["staff", 200],
    ["support", 200],
    ["providerOwner", 200],
    ["providerManager", 200],
    ["providerSupport", 200],
    ["offeringManager", 200],
    ["projectAdmin", 403],
    ["projectMember", 403],
    ["unrelated", 403],
  ] as Array<[Persona, number]>)("as %s → %i", async (persona, status) => {
    expect((await t.http("GET", path(), { token: t.world.tokens[persona] })).status).toBe(status);
  });

  it("404 for an unknown or malformed provider, 401 anonymous", async () => {
    const token = t.world.tokens.staff;
    expect((await t.http("GET", `/api/marketplace-service-providers/${"0".repeat(32)}/keys/`, { token })).status).toBe(404);
    expect((await t.http("GET", "/api/marketplace-service-providers/garbage/keys/", { token })).status).toBe(404);
    expect((await t.http("GET", path())).status).toBe(401);
  });

  it("is the same over GraphQL and empties once the last live resource is terminated", async () => {
    const query = `query($uuid: ID!) { serviceProviderKeys(uuid: $uuid) { totalCount nodes { uuid fingerprintSha256 isShared } } }`;
    const before = await t.gql(query, { uuid: t.world.serviceProvider.uuid }, t.world.tokens.offeringManager);
    expect(before.data.serviceProviderKeys.totalCount).toBe(3);
    expect(before.data.serviceProviderKeys.nodes.map((n: { uuid: string }) => n.uuid).sort()).toEqual(served.expected);
    const denied = await t.gql(query, { uuid: t.world.serviceProvider.uuid }, t.world.tokens.unrelated);
    expect(denied.errors?.[0].extensions?.code).toBe("FORBIDDEN");
    await db().resource.update({ where: { id: served.resource }, data: { state: "TERMINATED" } });
    const after = await t.http("GET", path(), { token: t.world.tokens.providerOwner });
    expect(after.body).toEqual([]);
    expect(after.headers.get("x-result-count")).toBe("0");
  });
});

describe("SSH keys over GraphQL", () => {
  const CREATE = `mutation($input: CreateSshKeyInput!) { createSshKey(input: $input) { ... on SshKey { uuid name type isShared user { username } } ${failuresOf("createSshKey")} } }`;
  const DELETE = `mutation($id: ID!) { deleteSshKey(input: { id: $id }) { ... on Deletion { uuid } ${failuresOf("deleteSshKey")} } }`;

  it("creates, lists, retrieves and deletes; validation errors are named as the input names its fields", async () => {
    const token = t.world.tokens.providerManager;
    const line = ed25519Key("gql");
    const created = (await t.gql(CREATE, { input: { publicKey: line } }, token)).data.createSshKey;
    expect(created).toMatchObject({ name: "gql", type: "ssh-ed25519", isShared: false, user: { username: "providerManager" } });
    const duplicate = (await t.gql(CREATE, { input: { publicKey: line } }, token)).data.createSshKey;
    expect(duplicate).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(duplicate)).toEqual({ publicKey: ["Key with same fingerprint already exists."] });
    const listed = await t.gql(`{ sshKeys(filter: { name: "gql" }) { totalCount nodes { uuid } } }`, {}, token);
    expect(listed.data.sshKeys).toEqual({ totalCount: 1, nodes: [{ uuid: created.uuid }] });
    expect((await t.gql(`query($u: ID!) { sshKey(uuid: $u) { publicKey } }`, { u: created.uuid }, token)).data.sshKey.publicKey).toBe(line);
    const notYours = await t.gql(DELETE, { id: globalId("SshKey", created.uuid) }, t.world.tokens.providerOwner);
    expect(notYours.data.deleteSshKey).toMatchObject({ __typename: "NotFoundError", code: "NOT_FOUND" });
    expect((await t.gql(DELETE, { id: globalId("SshKey", created.uuid) }, token)).data.deleteSshKey).toEqual({ uuid: created.uuid });
  });

  it("an invalid key and an unknown user are errors of publicKey and userUuid", async () => {
    const invalidKey = (await t.gql(CREATE, { input: { publicKey: "ssh-ed25519 not-base64!" } }, t.world.tokens.staff)).data.createSshKey;
    expect(Object.keys(fieldsOf(invalidKey))).toEqual(["publicKey"]);
    const unknownUser = await t.gql(CREATE, { input: { publicKey: ed25519Key("nobody's"), userUuid: "0".repeat(32) } }, t.world.tokens.staff);
    expect(unknownUser.data.createSshKey).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(unknownUser.data.createSshKey)).toEqual({ userUuid: ["Object does not exist."] });
  });
});
