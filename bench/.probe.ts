import { runLoad } from "./load.ts";
import { graphqlListRequest, restListRequest } from "./scenarios.ts";
import { startServer } from "./server-process.ts";
const which = process.argv[2];
const app = await startServer({ kind: "app", seed: true, cpuProfileDir: process.env.PROF });
const spec = which === "rest" ? restListRequest(app.token!) : graphqlListRequest(app.token!);
const r = await runLoad({ baseUrl: app.baseUrl, connections: 16, warmupMs: 2000, durationMs: 6000, next: () => spec });
console.log(which, r.rps.toFixed(0), r.p50Ms.toFixed(1));
await app.stop();
