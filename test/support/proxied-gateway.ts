import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { type App, createApp } from "../../src/app.ts";
import { type Database, openDatabase } from "../../src/platform/database/connect.ts";
import { type GatewayStorage, postgresStorage } from "./storage.ts";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy.ts";
import { buildWorld, type World } from "./world.ts";

/** A gateway whose PostgreSQL connections pass through a TCP proxy the test can cut, beside direct connections of the test's own. */
export class ProxiedGateway {
  storage!: GatewayStorage;
  proxy!: TcpProxy;
  app!: App;
  world!: World;
  /** The test's own connection, outside the proxy: sees what really committed. */
  observer!: pg.Client;
  /** The Prisma client the world was built with, outside the proxy. */
  seeding!: Database;

  /** A request to the gateway in-process, as the staff user. */
  fetch(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Token ${this.world.tokens.staff}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    return Promise.resolve(
      this.app.fetch(new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })),
    );
  }
}

/**
 * Starts a ProxiedGateway before the file's tests (on TEST_DATABASE_URL; call it inside a `describe.skipIf` without one)
 * and stops it after them. `applicationName` tells the gateway's backends apart in pg_stat_activity.
 */
export function useProxiedGateway(pubsubPrefix: string, applicationName?: string): ProxiedGateway {
  const gateway = new ProxiedGateway();
  beforeAll(async () => {
    const storage = (gateway.storage = await postgresStorage(process.env.TEST_DATABASE_URL!));
    gateway.seeding = await storage.open();
    gateway.world = await buildWorld(gateway.seeding.prisma);
    const target = new URL(storage.url!);
    gateway.proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const gatewayUrl = new URL(gateway.proxy.urlFor(storage.url!));
    if (applicationName) gatewayUrl.searchParams.set("application_name", applicationName);
    const database = await openDatabase({ databaseUrl: gatewayUrl.toString(), poolSize: 3 });
    gateway.app = await createApp({ database, config: { seedDemo: false, logLevel: "silent", rateLimitMutations: 0, pubsubPrefix } });
    gateway.observer = new pg.Client({ connectionString: storage.url });
    await gateway.observer.connect();
  });
  afterAll(async () => {
    await gateway.app?.close().catch(() => {});
    await gateway.app?.database.close().catch(() => {});
    await gateway.observer?.end();
    await gateway.seeding?.close();
    await gateway.proxy?.close();
    await gateway.storage?.dispose();
  });
  return gateway;
}
