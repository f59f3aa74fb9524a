import { createApp } from "../src/app.ts";
import { DEMO_PASSWORD, issueToken, seedDemo, wipe } from "../src/seed/demo.ts";

// Replaces everything in the configured database with the demo data set.
const app = await createApp({ config: { seedDemo: false } });
await wipe(app.deps.db);
await seedDemo(app);
const token = await issueToken(app.deps.db, "staff");
console.log(`Demo data re-seeded (password of every demo user: ${DEMO_PASSWORD}).\nStaff token: ${token}`);
await app.close();
process.exit(0);
