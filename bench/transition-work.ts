import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

/**
 * What one committed transition costs the database, from pg_stat_database's counters of the scratch database
 * (pg_stat_statements is not there): transactions (an autocommit statement is one; BEGIN … COMMIT is one) and rows
 * written. Backends publish their counters at most every second, and an idle one within 10 s (PostgreSQL 15+), so each
 * reading waits that out; other sessions on the database (the idle servers) add nothing while the bench does nothing.
 */
export interface DatabaseWork {
  layer: string;
  transitions: number;
  transactionsPerTransition: number;
  rowsInsertedPerTransition: number;
  rowsUpdatedPerTransition: number;
}

const COUNTERS_SQL = `SELECT xact_commit + xact_rollback AS transactions, tup_inserted AS inserted, tup_updated AS updated
                        FROM pg_stat_database WHERE datname = current_database()`;
/** PGSTAT_IDLE_INTERVAL (10 s) and a margin. */
const SETTLE_MS = 11_000;

type Counters = { transactions: number; inserted: number; updated: number };

async function counters(client: pg.Client): Promise<Counters> {
  const row = (await client.query<Record<keyof Counters, string>>(COUNTERS_SQL)).rows[0];
  return { transactions: Number(row.transactions), inserted: Number(row.inserted), updated: Number(row.updated) };
}

/**
 * Runs `exercise` (which answers how many transitions it committed) against each layer's server in turn and reads the
 * counters around it. The peers scenario counts its pages the same way (a "transition" there is one request).
 */
export async function databaseWorkPerTransition<L extends string, S>(
  layers: Array<{ layer: L; server: S }>,
  databaseUrl: string,
  exercise: (server: S) => Promise<number>,
  log: (message: string) => void,
  unit = "transition",
): Promise<DatabaseWork[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    log(`  counting database work per ${unit} (pg_stat_database; ${SETTLE_MS / 1000} s settling per reading)`);
    await sleep(SETTLE_MS);
    let before = await counters(client);
    const work: DatabaseWork[] = [];
    for (const { layer, server } of layers) {
      const transitions = await exercise(server);
      await sleep(SETTLE_MS);
      const after = await counters(client);
      // Less the reading's own transaction.
      const per = (key: keyof Counters) => (after[key] - before[key] - (key === "transactions" ? 1 : 0)) / transitions;
      work.push({ layer, transitions, transactionsPerTransition: per("transactions"), rowsInsertedPerTransition: per("inserted"), rowsUpdatedPerTransition: per("updated") });
      log(`  ${layer.padEnd(7)} ${transitions} ${unit}s: ${per("transactions").toFixed(2)} transactions, ${per("inserted").toFixed(2)} rows inserted, ${per("updated").toFixed(2)} rows updated per ${unit}`);
      before = after;
    }
    return work;
  } finally {
    await client.end();
  }
}
