import { createSourceEventStream, type DocumentNode, type ExecutionArgs, type ExecutionResult, execute, print } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Context } from "../context.ts";
import { SubscriptionEnded } from "../platform/messaging/topic-hub.ts";

type Result = ExecutionResult | Promise<ExecutionResult>;

/** Results per published payload (every local subscriber of a topic receives the same object) and subscription key. */
const resultsByPayload = new WeakMap<object, Map<string, Result>>();
const printedDocuments = new WeakMap<DocumentNode, string>();

function printed(document: DocumentNode): string {
  let text = printedDocuments.get(document);
  if (text === undefined) printedDocuments.set(document, (text = print(document)));
  return text;
}

/**
 * What decides a subscription's result for a given payload: who asks (their roles decide what resolvers show), the
 * origin of absolute urls, and the operation with its variables. Subscriptions with equal keys get equal results.
 */
function subscriptionKey(args: ExecutionArgs): string {
  const ctx = args.contextValue as Context;
  return JSON.stringify([ctx.viewer?.id ?? null, ctx.baseUrl, printed(args.document), args.operationName ?? null, args.variableValues ?? null]);
}

function sharedResult(args: ExecutionArgs, key: string, payload: unknown): Result {
  if (typeof payload !== "object" || payload === null) return execute({ ...args, rootValue: payload });
  let results = resultsByPayload.get(payload);
  if (!results) resultsByPayload.set(payload, (results = new Map()));
  let result = results.get(key);
  if (!result) results.set(key, (result = execute({ ...args, rootValue: payload })));
  return result;
}

/** How many items a subscription maps (executes) ahead of its consumer: the next ones load while one is sent. */
const MAPPED_AHEAD = 4;

const ended = (): IteratorResult<ExecutionResult> => ({ done: true, value: undefined });

/**
 * Maps each item of `source`, in order, up to MAPPED_AHEAD ahead of the consumer (`source.next()` is still called one
 * at a time), passing return() and throw() through so an ending client releases its topic. A subscription the hub
 * ended (feed interrupted, subscriber too slow) gets the reason as a last result with errors and completes, alike
 * over graphql-ws and SSE (whose stream would otherwise just break off).
 */
function mapEach(source: AsyncIterator<unknown>, map: (item: unknown) => Result): AsyncIterableIterator<ExecutionResult> {
  let finished = false;
  let returned = false;
  const ahead: Array<Promise<IteratorResult<ExecutionResult>>> = [];
  let pulled: Promise<unknown> = Promise.resolve();
  const pull = () => {
    const item = pulled.then(() => (finished ? ended() : source.next()));
    pulled = item.then(
      (next) => (finished ||= next.done === true),
      () => (finished = true),
    );
    const result = item.then(
      async (next): Promise<IteratorResult<ExecutionResult>> => (next.done ? ended() : { done: false, value: await map(next.value) }),
      (error: unknown) => {
        if (!(error instanceof SubscriptionEnded)) throw error;
        return { done: false, value: { errors: [error] } };
      },
    );
    // Rejected while still ahead, it is not unhandled: the consumer gets the rejection when it reaches it.
    result.catch(() => {});
    ahead.push(result);
  };
  // A read still pending when the consumer cancelled is left unanswered: answering it would make yoga's SSE body
  // (undici's byte stream) close a stream already cancelled, which throws ERR_INVALID_STATE uncaught.
  const unlessReturned = <T>(result: T): T | Promise<never> => (returned ? new Promise<never>(() => {}) : result);
  return {
    async next() {
      while (!finished && ahead.length < MAPPED_AHEAD) pull();
      const next = ahead.shift();
      return next ? unlessReturned(await next) : ended();
    },
    async return() {
      returned = true;
      finished = true;
      await source.return?.();
      return ended();
    },
    async throw(error?: unknown) {
      if (source.throw) await source.throw(error);
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

async function sharedSubscribe(args: ExecutionArgs) {
  const stream = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in stream)) return stream;
  const key = subscriptionKey(args);
  return mapEach(stream[Symbol.asyncIterator](), (payload) => sharedResult(args, key, payload));
}

/**
 * Executes a subscription's selection once per published change and subscription key, however many subscriptions
 * (graphql-ws or SSE, on any connection of this instance) share that key: ten thousand dashboards of one user watching
 * the same document cost one execution per change, not ten thousand. Errors are masked per subscriber afterwards, as
 * before, by yoga's masking plugin.
 */
export const useSharedSubscriptionResults = (): Plugin => ({
  onSubscribe({ setSubscribeFn }) {
    setSubscribeFn(sharedSubscribe as never);
  },
});
