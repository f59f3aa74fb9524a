import { type DocumentNode, type ExecutionArgs, type ExecutionResult, GraphQLError, type GraphQLSchema, parse, validate } from "graphql";
import type { Context } from "../src/context.ts";
import type { RouteSpec } from "./route.ts";
import type { RestFragment, RestSurface } from "./surface.ts";
import { selectingFailures } from "./typed-failures.ts";

export interface CompiledRoute extends RouteSpec {
  parsed: DocumentNode;
  /** The schema the document was validated against, and runs on: the internal graph (src/schema.ts). */
  schema: GraphQLSchema;
}

/** The text of every fragment a document spreads, directly or inside another fragment. */
function fragmentsUsedBy(document: string, fragments: RestFragment[]): string[] {
  const used = new Map<string, string>();
  const pending = [document];
  while (pending.length) {
    const text = pending.pop()!;
    for (const f of fragments) {
      if (!used.has(f.name) && new RegExp(`\\.\\.\\.${f.name}\\b`).test(text)) {
        used.set(f.name, f.text);
        pending.push(f.text);
      }
    }
  }
  return [...used.values()];
}

/** A route's document with every fragment it spreads: the operation the adapter runs. */
export const documentWithFragments = (document: string, fragments: RestFragment[]) => [document, ...fragmentsUsedBy(document, fragments)].join("\n");

/** Parses and validates every route's document once, at start-up: a broken route fails the boot, not a request. */
export function compileRoutes({ routes, fragments }: RestSurface, schema: GraphQLSchema): CompiledRoute[] {
  return routes.map((route) => {
    const parsed = selectingFailures(schema, parse(documentWithFragments(route.document, fragments)));
    const errors = validate(schema, parsed);
    if (errors.length) throw new Error(`${route.method} ${route.path}: ${errors.map((e) => e.message).join("; ")}`);
    return { ...route, parsed, schema };
  });
}

/**
 * Yoga's envelop pipeline (src/server/yoga.ts), with the same plugins as /graphql: the server lends it to the engine,
 * which sits below the server (the domains' REST surfaces import the engine; the server imports domains).
 */
export interface OperationPipeline {
  getEnveloped(initial: Context): { execute: (args: ExecutionArgs) => unknown };
}

/**
 * Runs a prepared operation through yoga's envelop pipeline (same plugins as /graphql) with the request's context, on
 * the schema the route was compiled against rather than the one /graphql serves. The context is the one the adapter
 * built (it carries the HTTP request, as yoga's contexts do, for the plugins that observe it): yoga's context
 * building would only copy it.
 */
export async function runOperation(pipeline: OperationPipeline, ctx: Context, route: CompiledRoute, variableValues: Record<string, unknown>): Promise<ExecutionResult> {
  const result = (await pipeline.getEnveloped(ctx).execute({ schema: route.schema, document: route.parsed, variableValues, contextValue: ctx })) as ExecutionResult;
  return { ...result, errors: result.errors?.map((e) => (e instanceof GraphQLError ? e : new GraphQLError(String(e)))) };
}
