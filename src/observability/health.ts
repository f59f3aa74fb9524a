import type { Handler } from "hono";
import { Redis } from "ioredis";
import { pendingMigrations, type SqlExecutor } from "../platform/database/migrations.ts";
import type { Logger } from "./logger.ts";

const DEFAULT_TIMEOUT_MS = 2_000;

export interface ReadinessTargets {
  sql: SqlExecutor;
  migrationsDir: string;
  redisUrl: string | undefined;
  timeoutMs?: number;
}

/** A failure whose message is fit for the public readiness body. */
class NotReady extends Error {}

interface Check {
  run: (timeoutMs: number) => Promise<void>;
  /** What the body says when the check throws anything but NotReady (the error itself goes to the log). */
  failure: string;
}

export type CheckOutcome = { status: "ok" } | { status: "failed"; reason: string };

async function assertMigrated(sql: SqlExecutor, migrationsDir: string) {
  const pending = await pendingMigrations(sql, migrationsDir);
  if (pending.length) throw new NotReady(`not applied: ${pending.join(", ")}`);
}

async function pingRedis(url: string, timeoutMs: number) {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    const answer = await client.ping();
    if (answer !== "PONG") throw new NotReady(`PING answered ${JSON.stringify(answer)}`);
  } finally {
    client.disconnect();
  }
}

function readinessChecks({ sql, migrationsDir, redisUrl }: ReadinessTargets): Record<string, Check> {
  return {
    database: { run: async () => void (await sql.query("select 1")), failure: "select 1 failed" },
    migrations: { run: () => assertMigrated(sql, migrationsDir), failure: "cannot read the applied migrations" },
    ...(redisUrl ? { redis: { run: (timeoutMs: number) => pingRedis(redisUrl, timeoutMs), failure: "PING failed" } } : {}),
  };
}

async function withTimeout(work: Promise<void>, timeoutMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NotReady(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every check concurrently; each fails on its own, within the timeout. */
export async function checkReadiness(targets: ReadinessTargets, logger: Logger): Promise<Record<string, CheckOutcome>> {
  const timeoutMs = targets.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const entries = Object.entries(readinessChecks(targets)).map(async ([name, check]): Promise<[string, CheckOutcome]> => {
    try {
      await withTimeout(check.run(timeoutMs), timeoutMs);
      return [name, { status: "ok" }];
    } catch (error) {
      logger.warn({ check: name, err: error }, "readiness check failed");
      return [name, { status: "failed", reason: error instanceof NotReady ? error.message : check.failure }];
    }
  });
  return Object.fromEntries(await Promise.all(entries));
}

/** `GET /health/ready`: 200 when every check passes, else 503 naming the failed ones. */
export function readinessEndpoint(targets: ReadinessTargets, logger: Logger): Handler {
  return async (c) => {
    const checks = await checkReadiness(targets, logger);
    const failed = Object.keys(checks).filter((name) => checks[name].status !== "ok");
    if (failed.length === 0) return c.json({ status: "ok", checks });
    return c.json({ status: "unavailable", failed, checks }, 503);
  };
}
