/**
 * The server under test, run as a child process of bench/run.ts so that it has a core of its own.
 *   BENCH_SERVER=app          the gateway (createApp) on PGlite in memory, or on BENCH_DATABASE_URL
 *   BENCH_SERVER=hono-prisma  a minimal Hono + Prisma app (bench/hono-prisma-server.ts) on BENCH_DATABASE_URL
 *   BENCH_SERVER=bare         the node:http + pg floor (bench/bare-server.ts) on BENCH_DATABASE_URL
 *   BENCH_SEED=1              seed the benchmark data first (app only) and report the staff token
 * Reports `{ ready: { port, token? } }` over IPC once listening; answers "cpu" with its process.cpuUsage(),
 * "memory" with its process.memoryUsage() after a full garbage collection; exits on "stop".
 */
import type { AddressInfo } from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { serve } from "@hono/node-server";
import pg from "pg";
import { createApp } from "../src/app.ts";
import { openDatabase } from "../src/platform/database/connect.ts";
import { loadDeploymentSettings } from "../src/platform/settings/deployment-settings.ts";
import { createBareServer } from "./bare-server.ts";
import { createHonoPrismaApp } from "./hono-prisma-server.ts";
import { seedBenchData, seedBenchViewers } from "./seed.ts";

export interface ServerReady {
  port: number;
  token?: string;
  /** Tokens of the distinct viewers seeded for this server (BENCH_SEED_VIEWERS). */
  viewerTokens?: string[];
  database: "pglite" | "postgresql";
}

const kind = process.env.BENCH_SERVER ?? "app";
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const POOL_SIZE = 10;
// Load from one token is what the bench measures, not what a per-caller mutation budget would allow.
process.env.RATE_LIMIT_MUTATIONS ??= "0";

v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

async function startApp(): Promise<{ ready: ServerReady; close: () => Promise<void> }> {
  // As createApp opens its database: the deployed settings (their defaults unless the environment sets them).
  const deployed = loadDeploymentSettings();
  const database = await openDatabase({
    databaseUrl,
    poolSize: POOL_SIZE,
    statementTimeoutMs: deployed.databaseStatementTimeoutMs,
    preparedStatements: deployed.databasePreparedStatements,
    commitGroups: deployed.databaseCommitGroups,
  });
  const app = await createApp({ database, config: { seedDemo: false, pubsubPrefix: "bench", redisUrl: undefined, ...(process.env.LOG_LEVEL ? {} : { logLevel: "warn" as const }) } });
  const token = process.env.BENCH_SEED === "1" ? await seedBenchData(app.deps.db) : undefined;
  const viewers = Number(process.env.BENCH_SEED_VIEWERS ?? 0);
  const viewerTokens = viewers > 0 ? await seedBenchViewers(app.deps.db, viewers, String(process.pid), process.env.BENCH_SEED_VIEWER_ROLES === "distinct") : undefined;
  const port = await app.listen(0, "127.0.0.1");
  return {
    ready: { port, token, viewerTokens, database: database.kind },
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

async function startBare(): Promise<{ ready: ServerReady; close: () => Promise<void> }> {
  if (!databaseUrl) throw new Error("the bare server needs BENCH_DATABASE_URL");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  const server = createBareServer(pool);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    ready: { port: (server.address() as AddressInfo).port, database: "postgresql" },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

async function startHonoPrisma(): Promise<{ ready: ServerReady; close: () => Promise<void> }> {
  if (!databaseUrl) throw new Error("the Hono + Prisma server needs BENCH_DATABASE_URL");
  const database = await openDatabase({ databaseUrl, poolSize: POOL_SIZE });
  const app = createHonoPrismaApp(database.prisma);
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve({ server, port: info.port }));
  });
  return {
    ready: { port, database: "postgresql" },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
    },
  };
}

const STARTERS = { app: startApp, bare: startBare, "hono-prisma": startHonoPrisma } as const;
const starter = STARTERS[kind as keyof typeof STARTERS];
if (!starter) throw new Error(`unknown BENCH_SERVER ${kind}`);
const { ready, close } = await starter();
process.send?.({ ready });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await close().catch((error) => console.error("bench server: close failed", error));
  process.exit(0);
}
process.on("message", (message) => {
  if (message === "stop") void stop();
  if (message === "cpu") process.send?.({ cpu: process.cpuUsage() });
  if (message === "memory") {
    collectGarbage();
    process.send?.({ memory: process.memoryUsage() });
  }
});
process.on("SIGTERM", () => void stop());
process.on("disconnect", () => void stop());
