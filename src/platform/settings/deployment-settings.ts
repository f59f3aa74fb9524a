/** What one instance takes from the shared database, and how long it lets work finish when it is stopped. */
export interface DeploymentSettings {
  /** Connections this instance holds to PostgreSQL at most. */
  databasePoolSize: number;
  /** Statements each PostgreSQL connection keeps parsed and planned (named); 0 names none (a PgBouncer in transaction mode before 1.21). */
  databasePreparedStatements: number;
  /** Transactions of lone writes in flight at once on PostgreSQL; the writes arriving meanwhile commit together (0: no groups). */
  databaseCommitGroups: number;
  /** PostgreSQL cancels a statement running longer (the client gets 503); 0 switches the limit off. */
  databaseStatementTimeoutMs: number;
  /** How long one transaction may last, lock waits included, before it is rolled back (the client gets 503). */
  databaseTransactionTimeoutMs: number;
  /** On SIGTERM/SIGINT, how long requests in flight may take to finish before their connections are cut. */
  shutdownGraceMs: number;
}

const SETTINGS: Array<[keyof DeploymentSettings, string, number, number]> = [
  // key, variable, default, minimum
  ["databasePoolSize", "DATABASE_POOL_SIZE", 10, 1],
  // Prisma's own default statement cache per connection.
  ["databasePreparedStatements", "DATABASE_PREPARED_STATEMENTS", 100, 0],
  ["databaseCommitGroups", "DATABASE_COMMIT_GROUPS", 1, 0],
  // Below the 15 s a transaction may last (DATABASE_TRANSACTION_TIMEOUT_MS), so the database cancels a stuck
  // statement itself, releasing its locks and connection, before the transaction's deadline cancels it.
  ["databaseStatementTimeoutMs", "DATABASE_STATEMENT_TIMEOUT_MS", 10_000, 0],
  ["databaseTransactionTimeoutMs", "DATABASE_TRANSACTION_TIMEOUT_MS", 15_000, 1],
  ["shutdownGraceMs", "SHUTDOWN_GRACE_MS", 10_000, 0],
];

export function loadDeploymentSettings(env: NodeJS.ProcessEnv = process.env): DeploymentSettings {
  const settings = {} as DeploymentSettings;
  for (const [key, name, fallback, minimum] of SETTINGS) {
    const raw = env[name]?.trim();
    const value = raw ? Number(raw) : fallback;
    if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be an integer ≥ ${minimum}`);
    settings[key] = value;
  }
  return settings;
}
