import { ROUTES } from "../../rest-adapter/routes/index.ts";

// One `METHOD PATH KIND` line per served REST route: the input of extract-contract.py.
for (const route of ROUTES) console.log(`${route.method} ${route.path} ${route.kind}`);
