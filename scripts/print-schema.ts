import { readFileSync, writeFileSync } from "node:fs";
import { type GraphQLSchema, printSchema } from "graphql";
import { internalSchema, schema } from "../src/schema.ts";

/** The public graph (what clients and codegen read) and the internal one (what the REST adapter's documents run on). */
const PRINTED: Array<[file: string, schema: GraphQLSchema]> = [
  ["schema.graphql", schema],
  ["schema.internal.graphql", internalSchema],
];

const check = process.argv.includes("--check");
const readOrEmpty = (target: URL) => {
  try {
    return readFileSync(target, "utf8");
  } catch {
    return "";
  }
};

let stale = false;
for (const [file, printed] of PRINTED) {
  const target = new URL(`../${file}`, import.meta.url);
  const text = `${printSchema(printed)}\n`;
  if (!check) {
    writeFileSync(target, text);
    console.log(`Wrote ${file}`);
  } else if (readOrEmpty(target) !== text) {
    console.error(`${file} is out of date: run \`npm run schema:print\` and commit the result.`);
    stale = true;
  } else {
    console.log(`${file} is up to date.`);
  }
}
if (stale) process.exit(1);
