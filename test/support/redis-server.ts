import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createConnection, createServer } from "node:net";

/** A port nobody listens on right now (the kernel's choice, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    socket.once("connect", () => resolve(!!socket.end()));
    socket.once("error", () => resolve(false));
  });

/** Whether `redis-server` can be started here (a fresh machine may have none: the tests that need one skip). */
export const redisServerInstalled = spawnSync("redis-server", ["--version"]).status === 0;

/**
 * A private `redis-server` of one test (never the shared one): no persistence, on a port of its own that
 * survives `stop()`, so `start()` brings the same Redis URL back after an outage.
 */
export class PrivateRedis {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn("redis-server", ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    this.child = child;
    const deadline = Date.now() + 10_000;
    while (!(await accepts(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on port ${this.port} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** SIGKILL, as an outage looks to its clients; resolves once the process is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
}
