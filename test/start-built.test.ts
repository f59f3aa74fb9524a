import { spawnSync } from "node:child_process";
import net from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startArguments } from "../scripts/build.ts";
import { killGateways, spawnGateway, startGateway } from "./support/server-process.ts";
import { copyMigratedDataDir } from "./support/storage.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const ADMIN_TOKEN = "89abcdef0123456789abcdef0123456789abcdef";
const dataRoot = mkdtempSync(path.join(tmpdir(), "gateway-built-"));

afterAll(() => {
  killGateways();
  rmSync(dataRoot, { recursive: true, force: true });
});

describe("npm start (build, then dist/main.js with the start script's flags)", () => {
  it("builds and serves REST and GraphQL on an embedded data directory", async () => {
    const build = spawnSync(process.execPath, ["--import", "tsx", "scripts/build.ts"], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(build.status, build.stderr).toBe(0);

    const nodeArgs = startArguments();
    expect(nodeArgs.at(-1)).toBe("dist/main.js");
    const dataDir = path.join(dataRoot, "data");
    copyMigratedDataDir(dataDir);
    const gateway = await startGateway({ GATEWAY_DATA_DIR: dataDir, ADMIN_TOKEN }, { nodeArgs });
    const headers = { Authorization: `Token ${ADMIN_TOKEN}` };

    const users = await fetch(`${gateway.baseUrl}/api/users/?username=admin`, { headers });
    expect(users.status).toBe(200);
    expect(users.headers.get("x-result-count")).toBe("1");
    const graphql = await fetch(`${gateway.baseUrl}/graphql`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ me { username isStaff } }" }),
    });
    expect((await graphql.json()).data.me).toEqual({ username: "admin", isStaff: true });
    expect((await gateway.stop()).code).toBe(0);
  }, 90_000);

  it("on a port that is taken: one line that says so, exit 1, within seconds", async () => {
    const taken = net.createServer();
    const port = await new Promise<number>((resolve) => taken.listen(0, () => resolve((taken.address() as net.AddressInfo).port)));
    try {
      // npm start's own defaults (demo data, info logs): nothing else may be printed.
      const dataDir = path.join(dataRoot, "taken-port");
      copyMigratedDataDir(dataDir);
      const env = { GATEWAY_DATA_DIR: dataDir, PORT: String(port), HOST: "0.0.0.0" };
      const gateway = spawnGateway(env, { nodeArgs: startArguments(), testDefaults: false });
      // A hang is what the limit catches.
      const exit = await Promise.race([gateway.exited, new Promise((resolve) => setTimeout(() => resolve("still running after 80 s"), 80_000))]);
      expect(exit).toEqual({ code: 1, signal: null });
      expect(gateway.output().trim().split("\n")).toEqual([`Seeded demo data (every demo user's password: demo-password).`, `port ${port} is in use (set PORT=…)`]);
    } finally {
      taken.close();
    }
  }, 120_000);
});
