import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ redisUrl: undefined });
});
afterAll(async () => {
  await t?.close();
});

describe("GET /health", () => {
  it("answers 200 {status: ok} without a token, with a request id", async () => {
    const res = await t.http("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("GET /health/ready", () => {
  it("answers 200 on a migrated database, checking the database and the migrations (no Redis configured)", async () => {
    const res = await t.http("GET", "/health/ready");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", checks: { database: { status: "ok" }, migrations: { status: "ok" } } });
  });

  it("answers 503 naming the migrations check and the missing migration when a migration row is gone", async () => {
    const sql = t.app.database.sql;
    const { rows } = await sql.query<Record<string, unknown>>(`SELECT * FROM "_prisma_migrations" ORDER BY migration_name DESC LIMIT 1`);
    const row = rows[0];
    const newest = String(row.migration_name);
    await sql.query(`DELETE FROM "_prisma_migrations" WHERE migration_name = $1`, [newest]);
    try {
      const res = await t.http("GET", "/health/ready");
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: "unavailable",
        failed: ["migrations"],
        checks: { database: { status: "ok" }, migrations: { status: "failed", reason: `not applied: ${newest}` } },
      });
      expect(res.text).not.toMatch(/\bat .*\.ts:\d+/);
    } finally {
      const columns = Object.keys(row);
      await sql.query(
        `INSERT INTO "_prisma_migrations" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
        Object.values(row),
      );
    }
    expect((await t.http("GET", "/health/ready")).status).toBe(200);
  });
});

describe("GET /health/ready with an unreachable Redis", () => {
  let broken: TestApp;
  beforeAll(async () => {
    broken = await startTestApp({ redisUrl: "redis://127.0.0.1:1" });
  });
  afterAll(async () => {
    await broken?.close();
  });

  it("answers 503 naming the redis check, quickly", async () => {
    const started = Date.now();
    const res = await broken.http("GET", "/health/ready");
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      status: "unavailable",
      failed: ["redis"],
      checks: { database: { status: "ok" }, migrations: { status: "ok" }, redis: { status: "failed", reason: "PING failed" } },
    });
    expect((await broken.http("GET", "/health")).status).toBe(200);
  });
});

describe.runIf(process.env.REDIS_URL)("GET /health/ready with REDIS_URL set", () => {
  it("checks Redis too", async () => {
    const withRedis = await startTestApp({ redisUrl: process.env.REDIS_URL });
    try {
      const res = await withRedis.http("GET", "/health/ready");
      expect(res.status).toBe(200);
      expect(res.body.checks.redis).toEqual({ status: "ok" });
    } finally {
      await withRedis.close();
    }
  });
});
