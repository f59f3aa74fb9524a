import { readFileSync } from "node:fs";
import { printSchema } from "graphql";
import { expect, it } from "vitest";
import { internalSchema, schema } from "./schema.ts";

const committed = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), "utf8");

it("schema.graphql is the printed public schema (run `npm run schema:print` after changing it)", () => {
  expect(committed("schema.graphql")).toBe(`${printSchema(schema)}\n`);
});

it("schema.internal.graphql is the printed internal schema, the REST adapter's (run `npm run schema:print`)", () => {
  expect(committed("schema.internal.graphql")).toBe(`${printSchema(internalSchema)}\n`);
});
