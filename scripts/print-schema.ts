import { writeFileSync } from "node:fs";
import { printSchema } from "graphql";
import { schema } from "../src/schema.ts";

const target = new URL("../schema.graphql", import.meta.url);
const text = `${printSchema(schema)}\n`;
if (process.argv.includes("--check")) {
  const { readFileSync } = await import("node:fs");
  const current = (() => {
    try {
      return readFileSync(target, "utf8");
    } catch {
      return "";
    }
  })();
  if (current !== text) {
    console.error("schema.graphql is out of date: run `npm run schema:print` and commit the result.");
    process.exit(1);
  }
  console.log("schema.graphql is up to date.");
} else {
  writeFileSync(target, text);
  console.log("Wrote schema.graphql");
}
