import { lexicographicSortSchema } from "graphql";
import { builder } from "./graphql/builder.ts";
import "./graphql/scalars.ts";
import "./graphql/errors.ts";
import "./directory/schema-types.ts";
import "./directory/schema.ts";
import "./directory/schema-viewer.ts";
import "./tokens/schema.ts";
import "./events/schema.ts";
import "./offering-users/schema.ts";
import "./offering-users/schema-provider.ts";
import "./offering-users/schema-dashboard.ts";
import "./maintenance/schema.ts";
import "./maintenance/schema-actions.ts";
import "./maintenance/schema-offerings.ts";
import "./maintenance/schema-public.ts";
import "./maintenance/schema-admin-announcements.ts";
import "./terms-of-service/schema.ts";
import "./terms-of-service/schema-consents.ts";
import "./resources/schema.ts";
import "./resources/schema-provider.ts";
import "./orders/schema.ts";
import "./orders/schema-actions.ts";
import "./usage/schema.ts";
import "./usage/schema-user-limits.ts";
import "./ssh-keys/schema.ts";
import "./site-agents/schema.ts";
import "./event-subscriptions/schema.ts";
import "./graphql/version.ts";

/** What /graphql, graphql-ws, SSE and GraphiQL serve, and schema.graphql prints: types and fields for clients. */
export const schema = lexicographicSortSchema(builder.toSchema({ subGraph: "public" }));

/**
 * The public schema and REST's presentation fields (src/graphql/sub-graphs.ts), with the same resolvers: only the REST
 * adapter's prepared documents run on it. schema.internal.graphql prints it.
 */
export const internalSchema = lexicographicSortSchema(builder.toSchema({ subGraph: "internal" }));
