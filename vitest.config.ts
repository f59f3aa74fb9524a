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
    maxWorkers: 3,
    // A worker keeps the modules it loaded from one test file to the next (the app, its schema, Prisma's client):
    // importing them per file was most of the run. Test files share no state beyond that; each builds its own app.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
