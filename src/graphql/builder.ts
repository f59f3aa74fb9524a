import type { GraphQLResolveInfo } from "graphql";
import SchemaBuilder, { type SchemaTypes } from "@pothos/core";
import ErrorsPlugin from "@pothos/plugin-errors";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin, { decodeGlobalID, resolveNodes } from "@pothos/plugin-relay";
import SubGraphPlugin from "@pothos/plugin-sub-graph";
import type PrismaTypes from "../generated/pothos-types.ts";
import { getDatamodel } from "../generated/pothos-types.ts";
import type { Context } from "../context.ts";
import { DomainError, ErrorCode, fieldError } from "../platform/errors.ts";

const isNotFound = (error: unknown) => error instanceof DomainError && error.extensions.code === ErrorCode.NOT_FOUND;

/** What does not exist, or what the viewer may not see, is null: one missing object does not fail the others. */
export async function nullIfMissing<T>(load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

type GlobalId = { typename: string; id: string };

/** `public`: what /graphql serves; `internal`: the public graph and REST's presentation fields (the REST adapter's). */
export type SubGraph = "public" | "internal";

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  Connection: { totalCount: number };
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  SubGraphs: SubGraph;
}>({
  // Errors before Prisma and Relay, as plugin-errors asks, so typed errors also wrap their fields.
  plugins: [ErrorsPlugin, RelayPlugin, PrismaPlugin, SubGraphPlugin],
  defaultFieldNullability: false,
  // Every type and field is in both graphs unless tagged (src/graphql/sub-graphs.ts).
  subGraphs: { defaultForTypes: ["public", "internal"], fieldsInheritFromTypes: true },
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    onUnusedQuery: null,
  },
  relay: {
    clientMutationId: "omit",
    cursorType: "String",
    nodesOnConnection: {},
    edgesFieldOptions: { nullable: false },
    nodeFieldOptions: { nullable: false },
    decodeGlobalID: (globalID) => {
      try {
        return decodeGlobalID(globalID);
      } catch {
        throw fieldError("id", "Not a valid global id.");
      }
    },
    nodeQueryOptions: {
      description: "Any object by its global `id`; null when it does not exist or the viewer may not see it",
      resolve: (_root, { id }, ctx, info) => nodeOrNull(ctx, info, id),
    },
    nodesQueryOptions: {
      description: "Objects by their global ids, in order; null for each that does not exist or the viewer may not see",
      resolve: (_root, { ids }, ctx, info) => ids.map((id) => nodeOrNull(ctx, info, id)),
    },
  },
  // A mutation that declares its failures (`resultOr` in graphql/mutations.ts) returns a union of its result and them, `<Mutation>Result`.
  errors: {
    directResult: true,
    defaultTypes: [],
    defaultUnionOptions: { name: ({ fieldName }) => `${fieldName[0].toUpperCase()}${fieldName.slice(1)}Result` },
  },
});

/** The object a global id names, loaded as `node(id:)` loads it: null when missing or not visible to the viewer. */
export const nodeOrNull = (ctx: Context, info: GraphQLResolveInfo, id: GlobalId): Promise<unknown> =>
  nullIfMissing(Promise.resolve(resolveNodes(builder, ctx, info, [id])).then((nodes) => nodes[0]));

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

type PothosSchemaBuilder<T extends SchemaTypes> = PothosSchemaTypes.SchemaBuilder<T>;
/** The schema types of `builder`, for helpers that take its refs and field builders. */
export type Types = typeof builder extends PothosSchemaBuilder<infer T> ? T : never;
