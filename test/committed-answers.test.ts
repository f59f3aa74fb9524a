import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.ts";
import { orderIn } from "../src/orders/fixtures.ts";
import { type Database, openDatabase } from "../src/platform/database.ts";
import { ed25519Key } from "../src/ssh-keys/test-keys.ts";
import { type GatewayStorage, postgresStorage } from "./support/storage.ts";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.ts";
import { buildWorld, type World } from "./support/world.ts";

/**
 * A change whose COMMIT went through answers success even when the connection is lost right after it: the answer is
 * read inside the change's transaction, never after it (issue 11 §4.3).
 */
const postgresUrl = process.env.TEST_DATABASE_URL;

let storage: GatewayStorage;
let proxy: TcpProxy;
let app: App;
let world: World;
let observer: pg.Client;
let seeding: Database;

const headers = () => ({ authorization: `Token ${world.tokens.staff}`, "content-type": "application/json" });

/** Sends a request whose transaction's COMMIT is the last thing the gateway's connection delivers. */
async function cutAfterCommit(path: string, body: unknown) {
  const cut = proxy.cutAfterNextCommit();
  const response = await app.fetch(new Request(`http://gateway.test${path}`, { method: "POST", headers: headers(), body: JSON.stringify(body) }));
  await cut;
  await proxy.resume();
  return response;
}

describe.skipIf(!postgresUrl)("a connection lost right after COMMIT", () => {
  beforeAll(async () => {
    storage = await postgresStorage(postgresUrl!);
    seeding = await storage.open();
    world = await buildWorld(seeding.prisma);
    const target = new URL(storage.url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const database = await openDatabase({ databaseUrl: proxy.urlFor(storage.url!), poolSize: 3 });
    app = await createApp({ database, config: { seedDemo: false, logLevel: "silent", rateLimitMutations: 0, pubsubPrefix: "committed" } });
    observer = new pg.Client({ connectionString: storage.url });
    await observer.connect();
  });
  afterAll(async () => {
    await app?.close().catch(() => {});
    await app?.database.close().catch(() => {});
    await observer?.end();
    await seeding?.close();
    await proxy?.close();
    await storage?.dispose();
  });

  it("an SSH key created over REST answers 201 with the key", async () => {
    const response = await cutAfterCommit("/api/keys/", { public_key: ed25519Key("cut@after-commit"), name: "cut" });
    const { rows } = await observer.query("SELECT encode(uuid_send(id), 'hex') AS uuid FROM ssh_keys WHERE name = 'cut'");
    expect(rows).toHaveLength(1);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ uuid: rows[0].uuid, name: "cut" });
  });

  it("an order approved over GraphQL answers with the order and its relations", async () => {
    const order = await orderIn(seeding.prisma, world, "PENDING_PROVIDER");
    const response = await cutAfterCommit("/graphql", {
      query: `mutation { approveOrderByProvider(uuid: "${order.uuid}") { state order { uuid state project { name } } } }`,
    });
    const { rows } = await observer.query("SELECT state FROM orders WHERE id = $1", [order.id]);
    expect(rows[0].state).toBe("EXECUTING");
    expect(await response.json()).toEqual({
      data: { approveOrderByProvider: { state: "EXECUTING", order: { uuid: order.uuid, state: "EXECUTING", project: { name: "Project" } } } },
    });
  });
});
