import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 has no exports map: without this it can load twice (CJS via yoga, ESM via us).
    alias: { graphql: require.resolve("graphql/index.js") },
  },
  test: {
    include: ["src/**/*.test.ts", "rest-adapter/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["test/postgres/**", "node_modules/**"],
    globalSetup: ["test/support/global-setup.ts"],
    // Vitest's default is one worker per core but one: a single worker on a 2-core machine. Test files spend much
    // of their time waiting (timers, sockets, child processes), so three share two cores well.
    // On PostgreSQL the outage, slow-subscriber and fuzz tests are timing-sensitive and were not reliable with files
    // running alongside on the shared server, so that suite runs one file at a time.
    maxWorkers: process.env.TEST_DATABASE_URL ? 1 : 3,
    // On the embedded database a worker keeps the modules it loaded from one test file to the next (the app, its
    // schema, Prisma's client): importing them per file was most of the run. On PostgreSQL, where files also share
    // one server, the outage and fuzz tests were not reliable that way, so each file gets fresh modules there.
    isolate: Boolean(process.env.TEST_DATABASE_URL),
    testTimeout: 30_000,
    // A mutation that returns a typed failure its result union does not list fails the test that made it.
    // A read that src/platform/reads/sql cannot translate fails the test that made it, rather than going to Prisma.
    env: { GRAPHQL_STRICT_FAILURES: "1", SQL_READS_STRICT: "1" },
    hookTimeout: 60_000,
  },
});
