import { lexicographicSortSchema } from "graphql";
import { builder } from "./graphql/builder.ts";
import "./graphql/scalars.ts";
import "./graphql/errors.ts";
import "./modules.ts";
import "./graphql/version.ts";

/** What /graphql, graphql-ws, SSE and GraphiQL serve, and schema.graphql prints: types and fields for clients. */
export const schema = lexicographicSortSchema(builder.toSchema({ subGraph: "public" }));

/**
 * The public schema and REST's presentation fields (src/graphql/sub-graphs.ts), with the same resolvers: only the REST
 * adapter's prepared documents run on it. schema.internal.graphql prints it.
 */
export const internalSchema = lexicographicSortSchema(builder.toSchema({ subGraph: "internal" }));
