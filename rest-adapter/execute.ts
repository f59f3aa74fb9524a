import { type DocumentNode, type ExecutionResult, GraphQLError, type GraphQLSchema, parse, validate } from "graphql";
import type { Context } from "../src/context.ts";
import type { Yoga } from "../src/server/yoga.ts";
import type { RouteSpec } from "./route.ts";
import { FRAGMENTS } from "./fragments.ts";
import { selectingFailures } from "./typed-failures.ts";

export interface CompiledRoute extends RouteSpec {
  parsed: DocumentNode;
  /** The schema the document was validated against, and runs on: the internal graph (src/schema.ts). */
  schema: GraphQLSchema;
}

/** The text of every fragment a document spreads, directly or inside another fragment. */
function fragmentsUsedBy(document: string): string[] {
  const used = new Map<string, string>();
  const pending = [document];
  while (pending.length) {
    const text = pending.pop()!;
    for (const f of FRAGMENTS) {
      if (!used.has(f.name) && new RegExp(`\\.\\.\\.${f.name}\\b`).test(text)) {
        used.set(f.name, f.text);
        pending.push(f.text);
      }
    }
  }
  return [...used.values()];
}

/** A route's document with every fragment it spreads: the operation the adapter runs. */
export const documentWithFragments = (document: string) => [document, ...fragmentsUsedBy(document)].join("\n");

/** Parses and validates every route's document once, at start-up: a broken route fails the boot, not a request. */
export function compileRoutes(routes: RouteSpec[], schema: GraphQLSchema): CompiledRoute[] {
  return routes.map((route) => {
    const parsed = selectingFailures(schema, parse(documentWithFragments(route.document)));
    const errors = validate(schema, parsed);
    if (errors.length) throw new Error(`${route.method} ${route.path}: ${errors.map((e) => e.message).join("; ")}`);
    return { ...route, parsed, schema };
  });
}

/**
 * Runs a prepared operation through yoga's envelop pipeline (same plugins as /graphql) with the request's context, on
 * the schema the route was compiled against rather than the one /graphql serves; like yoga's own HTTP operations, the
 * context carries the HTTP `request` for the plugins that observe it.
 */
export async function runOperation(
  yoga: Yoga,
  ctx: Context,
  request: Request,
  route: CompiledRoute,
  variableValues: Record<string, unknown>,
): Promise<ExecutionResult> {
  const enveloped = yoga.getEnveloped({ gatewayContext: ctx, request });
  const result = (await enveloped.execute({
    schema: route.schema,
    document: route.parsed,
    variableValues,
    contextValue: await enveloped.contextFactory(),
  })) as ExecutionResult;
  return { ...result, errors: result.errors?.map((e) => (e instanceof GraphQLError ? e : new GraphQLError(String(e)))) };
}
