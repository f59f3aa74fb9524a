import { type DocumentNode, getOperationAST, type GraphQLError, Kind } from "graphql";
import type { Plugin } from "graphql-yoga";
import { clientDataError, vanishedRecordError } from "../platform/database/database-errors.ts";
import type { Logger } from "./logger.ts";
import type { GatewayMetrics, OperationLabels } from "./metrics.ts";
import { requestScopeOf, thrownError } from "./request-scope.ts";

/** The operation's name, or for anonymous operations (every REST route) its root fields. */
function describeOperation(document: DocumentNode, operationName: string | null | undefined) {
  const operation = getOperationAST(document, operationName);
  const rootFields = (operation?.selectionSet.selections ?? []).flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
  return { name: operation?.name?.value ?? (rootFields.join(",") || "anonymous"), type: operation?.operation ?? "unknown" };
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  value != null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";

/** Thrown by code rather than raised as a GraphQL or domain error: a bug or an outage, masked in the response. */
function isUnexpected(error: GraphQLError): boolean {
  const thrown = error.originalError;
  return thrown != null && !("extensions" in thrown) && clientDataError(thrown) === null && vanishedRecordError(thrown) === null;
}

type OperationArgs = { document: DocumentNode; operationName?: string | null; contextValue?: unknown };

/** HTTP operations (/graphql and REST routes) carry yoga's `request` in their context; graphql-ws ones do not. */
const requestOf = (args: OperationArgs) => (args.contextValue as { request?: Request } | undefined)?.request;

function labelsOf(args: OperationArgs): OperationLabels {
  const { name, type } = describeOperation(args.document, args.operationName);
  const request = requestScopeOf(requestOf(args));
  request?.operations.push(name);
  return { operation: name, type, source: request?.source ?? "websocket" };
}

/**
 * Counts and times every operation that passes through yoga's pipeline (GraphQL over HTTP, REST routes,
 * graphql-ws), keeps the open-subscription gauge, and sends unexpected errors with their stack to the log.
 */
export function useOperationObservation(metrics: GatewayMetrics, logger: Logger): Plugin {
  const reportUnexpected = (args: OperationArgs, errors: readonly GraphQLError[] | undefined) => {
    for (const error of errors ?? []) {
      if (!isUnexpected(error)) continue;
      const request = requestScopeOf(requestOf(args));
      if (request) request.errors.add(thrownError(error));
      else logger.error({ err: thrownError(error), path: error.path?.join(".") }, "graphql operation failed");
    }
  };
  return {
    onExecute({ args }) {
      const labels = labelsOf(args);
      const started = performance.now();
      return {
        onExecuteDone({ result }) {
          if (isAsyncIterable(result)) return metrics.recordOperation(labels, "ok");
          metrics.recordOperation(labels, result.errors?.length ? "error" : "ok", (performance.now() - started) / 1000);
          reportUnexpected(args, result.errors);
        },
      };
    },
    onSubscribe({ args }) {
      const labels = labelsOf(args);
      return {
        onSubscribeResult({ result }) {
          if (!isAsyncIterable(result)) {
            metrics.recordOperation(labels, "error");
            return reportUnexpected(args, result.errors);
          }
          metrics.recordOperation(labels, "ok");
          return { onEnd: metrics.openSubscription(labels.source) };
        },
      };
    },
  };
}
