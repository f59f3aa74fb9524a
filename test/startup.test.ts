import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundledStart, killGateways, startGateway } from "./support/server-process.ts";
import { copyMigratedDataDir } from "./support/storage.ts";

const dataRoot = mkdtempSync(path.join(tmpdir(), "gateway-start-"));

afterAll(() => {
  killGateways();
  rmSync(dataRoot, { recursive: true, force: true });
});

/** Runs the gateway's entry (what `npm start` runs once built), with its own defaults, on this file's embedded data directory and waits for the banner. */
async function start(env: Record<string, string>) {
  const gateway = await startGateway({ GATEWAY_DATA_DIR: path.join(dataRoot, "data"), ...env }, { testDefaults: false });
  const output = gateway.output();
  const token = /Staff token:\s+([0-9a-f]{40})/.exec(output)?.[1];
  return { base: gateway.baseUrl, token, output, stop: gateway.stop };
}

describe("npm start on a data directory another process holds", () => {
  it("says so in one line and exits 1, without a stack trace", () => {
    const dataDir = path.join(dataRoot, "held");
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(`${dataDir}.lock`, String(process.pid));
    const run = spawnSync(process.execPath, bundledStart(), {
      env: { ...process.env, GATEWAY_DATA_DIR: dataDir, PORT: "0" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(`The data directory ${dataDir} is in use by process ${process.pid}; stop it first (one process per data directory).`);
  });
});

describe("npm start on a fresh data directory", () => {
  it("migrates, seeds the demo, prints a working staff token, keeps data across restarts, honours ADMIN_TOKEN", async () => {
    const adminToken = "0123456789abcdef0123456789abcdef01234567";
    const first = await start({ ADMIN_TOKEN: adminToken });
    expect(first.output).toContain("Seeded demo data");
    expect(first.token).toMatch(/^[0-9a-f]{40}$/);

    const requested = await fetch(`${first.base}/api/marketplace-offering-users/?state=Requested`, {
      headers: { Authorization: `Token ${first.token}` },
    });
    expect(requested.status).toBe(200);
    expect(Number(requested.headers.get("x-result-count"))).toBeGreaterThanOrEqual(3);

    const offerings = await (await fetch(`${first.base}/api/marketplace-provider-offerings/`, { headers: { Authorization: `Token ${adminToken}` } })).json();
    expect(offerings).toEqual([
      expect.objectContaining({
        type: "Marketplace.Slurm",
        state: "Active",
        components: expect.arrayContaining([expect.objectContaining({ type: "cpu" }), expect.objectContaining({ type: "ram" })]),
      }),
    ]);
    const graphql = await fetch(`${first.base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", Authorization: `Token ${adminToken}` },
      body: JSON.stringify({ query: "{ me { username isStaff } }" }),
    });
    expect((await graphql.json()).data.me).toEqual({ username: "admin", isStaff: true });
    await first.stop();

    const second = await start({ ADMIN_TOKEN: adminToken });
    expect(second.output).not.toContain("Seeded demo data");
    const users = await fetch(`${second.base}/api/users/?username=admin`, { headers: { Authorization: `Token ${adminToken}` } });
    expect(users.status).toBe(200);
    expect(users.headers.get("x-result-count")).toBe("1");
    const again = await fetch(`${second.base}/api/marketplace-offering-users/?state=Requested`, { headers: { Authorization: `Token ${second.token}` } });
    expect(again.headers.get("x-result-count")).toBe(requested.headers.get("x-result-count"));
    await second.stop();
  }, 120_000);

  it("NODE_ENV=production: seeds nothing and keeps /metrics off on a fresh directory; refuses a directory with demo accounts", async () => {
    // Migrated and empty: creating it is the test above's.
    const empty = path.join(dataRoot, "production");
    copyMigratedDataDir(empty);
    const fresh = await start({ NODE_ENV: "production", GATEWAY_DATA_DIR: empty });
    expect(fresh.output).not.toContain("Seeded demo data");
    expect(fresh.token).toBeUndefined();
    expect(fresh.output).toMatch(/GET \/metrics is off \(404\): NODE_ENV=production requires METRICS_TOKEN/);
    expect((await fetch(`${fresh.base}/metrics`)).status).toBe(404);
    expect((await fetch(`${fresh.base}/health/ready`)).status).toBe(200);
    await fresh.stop();

    // The directory the test above seeded: its demo accounts still have the demo password.
    const refused = start({ NODE_ENV: "production" });
    await expect(refused).rejects.toThrow(/exited \(1\) before listening:[\s\S]*Refusing to start: NODE_ENV=production and demo accounts still have the demo password \(alice, bob, /);
  }, 120_000);
});
