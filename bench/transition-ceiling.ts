import pg from "pg";
import { runClosedLoops } from "./load.ts";
import { databaseNameOf, withDatabaseCpu } from "./peers/process-cpu.ts";
import { transition, type Viewer } from "./bare-transition.ts";
import { nextOperationOf, type Tracked } from "./offering-user-cycle.ts";

/**
 * What the database alone sustains of the transition on this machine: the bare handler's statements
 * (bench/bare-transition.ts: the read with the viewer's permission, then the compare-and-swap and the audit event in
 * one transaction) from `clients` connections of the bench's own process, with no HTTP and no server. No layer above
 * the database can commit more per second than this, so it is the ceiling the committed/s target is read against.
 */
export async function databaseAlone(databaseUrl: string, users: Tracked[], clients: number, seconds: number, warmupSeconds: number) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: clients });
  try {
    const viewer = (await pool.query<Viewer>("SELECT id, username, is_staff FROM users WHERE is_staff ORDER BY created LIMIT 1")).rows[0];
    const owned = Array.from({ length: clients }, (_, w) => users.filter((_, i) => i % clients === w));
    const cursor = owned.map(() => 0);
    const call = async (worker: number) => {
      const user = owned[worker][cursor[worker]++ % owned[worker].length];
      const step = nextOperationOf(user);
      const answer = await transition(pool, viewer, user.uuid, step.operation, "127.0.0.1").catch(() => ({ status: 0 }));
      if (answer.status === 200) user.state = step.to;
      return answer.status;
    };
    const run = (seconds: number) => runClosedLoops({ connections: clients, warmupMs: 0, durationMs: seconds * 1000, call });
    if (warmupSeconds > 0) await run(warmupSeconds);
    const { outcome: result, databaseCpuMs } = await withDatabaseCpu(databaseNameOf(databaseUrl), () => run(seconds));
    const committed = result.statuses["200"] ?? 0;
    return { clients, records: users.length, result, committedPerSecond: committed / result.seconds, databaseCpuMsPerCommitted: databaseCpuMs / committed };
  } finally {
    await pool.end();
  }
}
