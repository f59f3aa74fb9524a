import { type DocumentNode, type FragmentDefinitionNode, getOperationAST, GraphQLError, Kind, type SelectionSetNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { AppDeps, Context } from "../context.ts";
import { FAIL_OPEN, mutationBucket, throttled } from "../platform/throttling/rate-limit.ts";

/** An operation that could never fit in the bucket: waiting would not help, so it is a client error, not a 429. */
const tooManyMutations = (count: number, capacity: number) =>
  new GraphQLError(`This operation runs ${count} mutations; at most ${capacity} may run in one operation.`, {
    extensions: { code: "TOO_MANY_MUTATIONS", http: { status: 400 } },
  });

/**
 * How many root fields a mutation operation runs (0 for queries and subscriptions): its distinct response keys,
 * through fragments, without `__typename`. Each alias runs its field once, so aliases cannot multiply the budget.
 */
export function mutationFieldCount(document: DocumentNode, operationName?: string | null): number {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== "mutation") return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const keys = new Set<string>();
  const spread = new Set<string>();
  const collect = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== "__typename") keys.add((selection.alias ?? selection.name).value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) collect(fragment.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  return keys.size;
}

/** Authenticated callers are counted per user, so minting more tokens does not add budget; anonymous ones per address. */
const callerKey = (ctx: Context) => `mutations:${ctx.viewer ? `user:${ctx.viewer.id}` : `address:${ctx.ipAddress ?? "unknown"}`}`;

/**
 * Charges each caller's token bucket one token per root mutation field and refuses operations it cannot pay for
 * before any of their fields runs. An envelop plugin, so GraphQL over HTTP, graphql-ws and every REST write route
 * (each runs a mutation through yoga) draw on one bucket. Counting fails open: when Redis does not answer, it runs.
 */
export function mutationRateLimit(deps: AppDeps): Plugin<Context> {
  const limit = mutationBucket(deps.config);
  if (!limit) return {};
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const cost = mutationFieldCount(args.document, args.operationName);
      if (!cost) return;
      if (cost > limit.capacity) return setResultAndStopExecution({ errors: [tooManyMutations(cost, limit.capacity)] });
      const draw = await deps.buckets.take(callerKey(args.contextValue), limit, cost, deps.now().getTime()).catch(() => FAIL_OPEN);
      if (!draw.taken) setResultAndStopExecution({ errors: [throttled(draw.waitSeconds)] });
    },
  };
}
