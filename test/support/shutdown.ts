import net from "node:net";
import pg from "pg";
import { APPLICATION_NAME } from "../../src/platform/database/connect.ts";
import type { GatewayStorage } from "./storage.ts";
import { sleep } from "./ws.ts";
import { buildWorld } from "./world.ts";

/** A storage with the test world and one offering user in Requested; the storage is kept in `storages` for disposal. */
export async function seeded(storage: GatewayStorage, storages: GatewayStorage[]) {
  storages.push(storage);
  const database = await storage.open();
  const world = await buildWorld(database.prisma);
  const offeringUser = await world.offeringUser("CREATION_REQUESTED");
  await database.close();
  return { token: world.tokens.staff, offeringUser };
}

/** Resolves once the port refuses TCP connections (the server stopped listening). */
export async function refusesConnections(port: number, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
    });
    if (refused) return;
    await sleep(25);
  }
  throw new Error(`port ${port} still accepts connections`);
}

/** The JSON log line `http server drained` a gateway printed. */
export const drainReport = (output: string) => JSON.parse(output.split("\n").find((line) => line.includes('"http server drained"'))!);

/** Until one of the gateway's connections waits for a lock (the request has reached the database). */
export async function waitForLockWait(url: string, timeoutMs = 10_000) {
  const observer = new pg.Client({ connectionString: url });
  await observer.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await observer.query(
        "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database() AND wait_event_type = 'Lock'",
        [APPLICATION_NAME],
      );
      if (rows[0].waiting > 0) return;
      await sleep(25);
    }
    throw new Error("no gateway connection waits for the lock");
  } finally {
    await observer.end();
  }
}
