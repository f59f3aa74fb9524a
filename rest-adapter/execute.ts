import { type DocumentNode, type ExecutionResult, GraphQLError, parse, validate } from "graphql";
import type { Context } from "../src/context.ts";
import type { Yoga } from "../src/server/yoga.ts";
import type { RouteSpec } from "./route.ts";
import { FRAGMENTS } from "./fragments.ts";

export interface CompiledRoute extends RouteSpec {
  parsed: DocumentNode;
}

/** Parses and validates every route's document once, at start-up: a broken route fails the boot, not a request. */
export function compileRoutes(routes: RouteSpec[], schema: Parameters<typeof validate>[0]): CompiledRoute[] {
  return routes.map((route) => {
    const used = FRAGMENTS.filter((f) => route.document.includes(`...${f.name}`)).map((f) => f.text);
    const parsed = parse([route.document, ...used].join("\n"));
    const errors = validate(schema, parsed);
    if (errors.length) throw new Error(`${route.method} ${route.path}: ${errors.map((e) => e.message).join("; ")}`);
    return { ...route, parsed };
  });
}

/** Runs a prepared operation through yoga's envelop pipeline (same plugins as /graphql) with the request's context. */
export async function runOperation(
  yoga: Yoga,
  ctx: Context,
  route: CompiledRoute,
  variableValues: Record<string, unknown>,
): Promise<ExecutionResult> {
  const enveloped = yoga.getEnveloped({ gatewayContext: ctx });
  const result = (await enveloped.execute({
    schema: enveloped.schema,
    document: route.parsed,
    variableValues,
    contextValue: await enveloped.contextFactory(),
  })) as ExecutionResult;
  return { ...result, errors: result.errors?.map((e) => (e instanceof GraphQLError ? e : new GraphQLError(String(e)))) };
}
