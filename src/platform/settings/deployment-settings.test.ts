import { expect, it } from "vitest";
import { loadDeploymentSettings } from "./deployment-settings.ts";

it("defaults: a pool of 10 keeping 100 statements prepared each, 1 commit group in flight, a 10 s statement timeout, 15 s per transaction, 10 s to drain", () => {
  expect(loadDeploymentSettings({})).toEqual({
    databasePoolSize: 10,
    databasePreparedStatements: 100,
    databaseCommitGroups: 1,
    databaseStatementTimeoutMs: 10_000,
    databaseTransactionTimeoutMs: 15_000,
    shutdownGraceMs: 10_000,
  });
});

it("reads the variables; 0 names no statements, switches the statement timeout off and skips the grace period", () => {
  expect(
    loadDeploymentSettings({
      DATABASE_POOL_SIZE: "25",
      DATABASE_PREPARED_STATEMENTS: "0",
      DATABASE_COMMIT_GROUPS: "2",
      DATABASE_STATEMENT_TIMEOUT_MS: "0",
      DATABASE_TRANSACTION_TIMEOUT_MS: "5000",
      SHUTDOWN_GRACE_MS: "0",
    }),
  ).toEqual({
    databasePoolSize: 25,
    databasePreparedStatements: 0,
    databaseCommitGroups: 2,
    databaseStatementTimeoutMs: 0,
    databaseTransactionTimeoutMs: 5000,
    shutdownGraceMs: 0,
  });
});

it.each([
  ["DATABASE_POOL_SIZE", "0", "DATABASE_POOL_SIZE must be an integer ≥ 1"],
  ["DATABASE_POOL_SIZE", "ten", "DATABASE_POOL_SIZE must be an integer ≥ 1"],
  ["DATABASE_PREPARED_STATEMENTS", "-1", "DATABASE_PREPARED_STATEMENTS must be an integer ≥ 0"],
  ["DATABASE_COMMIT_GROUPS", "-1", "DATABASE_COMMIT_GROUPS must be an integer ≥ 0"],
  ["DATABASE_STATEMENT_TIMEOUT_MS", "-1", "DATABASE_STATEMENT_TIMEOUT_MS must be an integer ≥ 0"],
  ["DATABASE_TRANSACTION_TIMEOUT_MS", "0", "DATABASE_TRANSACTION_TIMEOUT_MS must be an integer ≥ 1"],
  ["SHUTDOWN_GRACE_MS", "1.5", "SHUTDOWN_GRACE_MS must be an integer ≥ 0"],
])("%s=%s is refused at start-up", (name, value, message) => {
  expect(() => loadDeploymentSettings({ [name]: value })).toThrow(message);
});
