import { REST_API } from "../../src/modules.ts";

// One `METHOD PATH KIND` line per served REST route: the input of extract-contract.py.
for (const route of REST_API.routes) console.log(`${route.method} ${route.path} ${route.kind}`);
