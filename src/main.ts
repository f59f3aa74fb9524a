import { createApp } from "./app.ts";
import { StartupRefusal } from "./platform/settings/startup-refusal.ts";
import { listenFailure } from "./server/listen-failure.ts";
import { ensureAdmin, isEmpty, issueToken, productionRefusal, seedDemo, DEMO_PASSWORD } from "./seed/demo.ts";

const app = await createApp().catch((error: unknown) => {
  if (!(error instanceof StartupRefusal)) throw error;
  console.error(error.message);
  process.exit(1);
});
const { config, db } = app.deps;
if (config.seedDemo && (await isEmpty(db))) {
  await seedDemo(app);
  console.log(`Seeded demo data (every demo user's password: ${DEMO_PASSWORD}).`);
}
const refusal = await productionRefusal(db, config.production);
if (refusal) {
  console.error(refusal);
  await app.close();
  process.exit(1);
}
if (config.adminToken) await ensureAdmin(db, config.adminToken);
const port = await app.listen().catch(async (error: unknown) => {
  console.error(listenFailure(error, config));
  await app.close();
  process.exit(1);
});
const base = config.publicUrl ?? `http://localhost:${port}`;
const token = config.seedDemo ? await issueToken(db, "staff") : null;
console.log(
  [
    `Marketplace Gateway is listening (${app.database.kind === "pglite" ? `embedded database in ${config.dataDir}` : "PostgreSQL"}).`,
    `  REST:          ${base}/api/`,
    `  GraphQL:       ${base}/graphql  (GraphiQL in a browser)`,
    `  Subscriptions: ${base.replace(/^http/, "ws")}/graphql  (graphql-ws; SSE on the same URL)`,
    `  Dashboard:     ${base}/dashboard/`,
    `  API docs:      ${base}/api/docs/  (OpenAPI document: ${base}/api/schema/)`,
    `  Health:        ${base}/health/ready   Metrics: ${base}/metrics`,
    token ? `  Staff token:   ${token}\n  Try: curl -H "Authorization: Token ${token}" ${base}/api/marketplace-offering-users/` : "",
    config.broker ? `  Site agents:   RabbitMQ at ${config.broker.managementUrl} (event_process: register_event_subscription)` : "",
    config.adminToken ? "  ADMIN_TOKEN is active for user admin." : "",
  ]
    .filter(Boolean)
    .join("\n"),
);

// The grace period bounds the drain, and the requests it stops get STOPPED_ANSWER_MS (5 s) to answer; this bounds
// everything after the grace period (those answers, then the database and Redis connections).
const CLOSE_MARGIN_MS = 10_000;
let stopping = false;
async function shutDown(signal: NodeJS.Signals) {
  // npm forwards the terminal's Ctrl-C as a second SIGINT: one shutdown is enough.
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  console.log(`${signal}: shutting down (requests in flight get up to ${config.shutdownGraceMs} ms)`);
  setTimeout(() => {
    console.error("Shutdown did not finish in time; exiting.");
    process.exit(1);
  }, config.shutdownGraceMs + CLOSE_MARGIN_MS).unref();
  try {
    await app.close();
  } catch (error) {
    console.error("Shutdown failed:", error);
    process.exit(1);
  }
  console.log(`Stopped after ${Date.now() - started} ms.`);
  process.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void shutDown(signal));
