import { readFileSync, writeFileSync } from "node:fs";
import { filterReference } from "../rest-adapter/filter-reference.ts";
import { REST_API } from "../src/modules.ts";

const target = new URL("../docs/rest-filters.md", import.meta.url);
const text = filterReference(REST_API.routes);
const current = (() => {
  try {
    return readFileSync(target, "utf8");
  } catch {
    return "";
  }
})();
if (process.argv.includes("--check")) {
  if (current !== text) {
    console.error("docs/rest-filters.md is out of date: run `npm run docs:filters` and commit the result.");
    process.exit(1);
  }
  console.log("docs/rest-filters.md is up to date.");
} else {
  writeFileSync(target, text);
  console.log("Wrote docs/rest-filters.md");
}
