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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
