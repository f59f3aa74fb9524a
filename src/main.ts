import { createApp } from "./app.ts";
import { ensureAdmin, isEmpty, issueToken, seedDemo, DEMO_PASSWORD } from "./seed/demo.ts";

const app = await createApp();
const { config, db } = app.deps;
if (config.seedDemo && (await isEmpty(db))) {
  await seedDemo(db);
  console.log(`Seeded demo data (every demo user's password: ${DEMO_PASSWORD}).`);
}
if (config.adminToken) await ensureAdmin(db, config.adminToken);
const port = await app.listen();
const base = config.publicUrl ?? `http://localhost:${port}`;
const token = config.seedDemo ? await issueToken(db, "staff") : null;
console.log(
  [
    `Marketplace Gateway is listening (${app.database.kind === "pglite" ? `embedded database in ${config.dataDir}` : "PostgreSQL"}).`,
    `  REST:          ${base}/api/`,
    `  GraphQL:       ${base}/graphql  (GraphiQL in a browser)`,
    `  Subscriptions: ${base.replace(/^http/, "ws")}/graphql  (graphql-ws; SSE on the same URL)`,
    token ? `  Staff token:   ${token}\n  Try: curl -H "Authorization: Token ${token}" ${base}/api/marketplace-offering-users/` : "",
    config.adminToken ? "  ADMIN_TOKEN is active for user admin." : "",
  ]
    .filter(Boolean)
    .join("\n"),
);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    await app.close();
    process.exit(0);
  });
}
