import type { DocumentNode, GraphQLSchema } from "graphql";
import type { Plugin } from "graphql-yoga";
import { compilePlan, type OperationPlan } from "./compile.ts";
import { runPlan } from "./run.ts";

/**
 * Executes every operation that has a plan (src/graphql/plans/compile.ts) by its plan, worked out once per schema,
 * document and operation name: a document kept parsed (POST /graphql's prepared documents, persisted operations, the
 * REST adapter's routes, yoga's parse cache) is planned once. The rest goes to the executor, and so does a request
 * whose variables do not coerce, which the executor reports.
 */
export function useCompiledPlans(): Plugin {
  const plans = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, OperationPlan | null>>>();

  function planOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined) {
    let bySchema = plans.get(schema);
    if (!bySchema) plans.set(schema, (bySchema = new WeakMap()));
    let byName = bySchema.get(document);
    if (!byName) bySchema.set(document, (byName = new Map()));
    const name = operationName ?? "";
    let plan = byName.get(name);
    if (plan === undefined) byName.set(name, (plan = compilePlan(schema, document, operationName) ?? null));
    return plan;
  }

  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const plan = planOf(args.schema, args.document, args.operationName);
      if (!plan) return;
      setExecuteFn((execution) =>
        execution.document === args.document && execution.schema === plan.schema
          ? (runPlan(plan, execution) ?? executeFn(execution))
          : executeFn(execution),
      );
    },
  };
}
