import { readFileSync } from "node:fs";
import { printSchema } from "graphql";
import { expect, it } from "vitest";
import { schema } from "./schema.ts";

it("schema.graphql is the printed Pothos schema (run `npm run schema:print` after changing it)", () => {
  const committed = readFileSync(new URL("../schema.graphql", import.meta.url), "utf8");
  expect(committed).toBe(`${printSchema(schema)}\n`);
});
