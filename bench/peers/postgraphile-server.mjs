// The PostGraphile peer of bench/peers.ts: PostGraphile 5 with the Amber preset over the bench's database, served by
// grafserv on node:http. Copied next to its node_modules (.bench/peers/postgraphile/) and run there; prints
// `{"port": N}` once it listens.
import { createServer } from "node:http";
import { postgraphile } from "postgraphile";
import { makePgService } from "postgraphile/adaptors/pg";
import { grafserv } from "postgraphile/grafserv/node";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";

// PostGraphile 5 asks for Node >= 22; of what Node 22 added it uses only Promise.withResolvers, filled in for Node 20.
Promise.withResolvers ??= function withResolvers() {
  let resolve, reject;
  const promise = new Promise((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

const preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString: process.env.DATABASE_URL, schemas: ["public"], poolConfig: { max: Number(process.env.POOL_SIZE ?? 10) } })],
  grafserv: { watch: false, graphiql: false },
};

const server = createServer();
const serv = postgraphile(preset).createServ(grafserv);
serv.addTo(server);
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
