import SchemaBuilder, { type SchemaTypes } from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import type PrismaTypes from "../generated/pothos-types.ts";
import { getDatamodel } from "../generated/pothos-types.ts";
import type { Context } from "../context.ts";

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [PrismaPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    onUnusedQuery: null,
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

type PothosSchemaBuilder<T extends SchemaTypes> = PothosSchemaTypes.SchemaBuilder<T>;
/** The schema types of `builder`, for helpers that take its refs and field builders. */
export type Types = typeof builder extends PothosSchemaBuilder<infer T> ? T : never;
