import { type ExecutionResult, GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Context } from "../context.ts";
import { ErrorCode } from "../platform/errors.ts";
import { SESSION_END, type SessionEnd, SOCKET_CLOSE, TOO_MANY_CONNECTIONS, type TokenSessions } from "../auth/tokens-sessions.ts";

/** How long a client over the per-user cap is asked to wait: connections are long-lived, so not at once. */
export const CONNECTIONS_RETRY_AFTER_SECONDS = 30;

const tooManyConnections = () =>
  new GraphQLError(TOO_MANY_CONNECTIONS, {
    extensions: {
      code: ErrorCode.RATE_LIMITED,
      retryAfter: CONNECTIONS_RETRY_AFTER_SECONDS,
      http: { status: 429, headers: { "Retry-After": String(CONNECTIONS_RETRY_AFTER_SECONDS) } },
    },
  });

const sessionEnded = (reason: SessionEnd) =>
  new GraphQLError(SESSION_END[reason], { extensions: { code: ErrorCode.UNAUTHENTICATED } });

/** A graphql-ws socket as the session needs it. */
interface Socket {
  readonly readyState: number;
  close(code: number, reason: string): void;
}
const OPEN = 1;

/**
 * Files an authenticated graphql-ws connection; its socket closes with 4401 when the token is revoked or expires.
 * Over the per-user cap the socket is closed with 4429 and null returned.
 */
export function openSocketSession(sessions: TokenSessions, userId: string, tokenDigest: string, socket: Socket) {
  // Closed while the token was being checked: graphql-ws has already called onClose, which would not release it.
  if (socket.readyState !== OPEN) return null;
  const release = sessions.open(userId, tokenDigest, (reason) => socket.close(SOCKET_CLOSE.unauthorized, SESSION_END[reason]));
  if (!release) socket.close(SOCKET_CLOSE.tooManyConnections, TOO_MANY_CONNECTIONS);
  return release;
}

type Results = AsyncIterable<ExecutionResult>;

/** `source`, ending early (after one last error result) when `end` is called; `release` runs once when it ends. */
function endable(source: Results, release: () => void) {
  const inner = source[Symbol.asyncIterator]();
  let reason: SessionEnd | undefined;
  let finished = false;
  let returned = false;
  let wake: () => void = () => {};
  const interrupted = new Promise<null>((resolve) => (wake = () => resolve(null)));
  const finish = () => {
    finished = true;
    release();
    void inner.return?.();
  };
  const stream: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      if (finished) return { done: true, value: undefined };
      if (reason) {
        finish();
        return { done: false, value: { errors: [sessionEnded(reason)] } };
      }
      const item = await Promise.race([inner.next(), interrupted]);
      // The consumer cancelled while this was pending: answering now would write to a closed response (undici's
      // body stream then throws ERR_INVALID_STATE, uncaught), so this read is left unanswered, as the source's is.
      if (returned) return new Promise<never>(() => {});
      if (item === null || reason) return stream.next();
      if (item.done) finish();
      return item;
    },
    async return() {
      returned = true;
      if (!finished) finish();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => stream,
  };
  return {
    stream,
    end(why: SessionEnd) {
      reason ??= why;
      wake();
    },
  };
}

/**
 * Subscriptions over SSE (HTTP requests; graphql-ws files its connections itself): each authenticated stream counts
 * towards its user's cap (429 + Retry-After beyond it) and ends when its token is revoked or expires.
 */
export function useTokenSessions(sessions: TokenSessions): Plugin<Context & { request?: Request }> {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue;
      if (!ctx.request || !ctx.viewer || !ctx.tokenDigest) return;
      let endStream: ((reason: SessionEnd) => void) | undefined;
      let endedEarly: SessionEnd | undefined;
      const release = sessions.open(ctx.viewer.id, ctx.tokenDigest, (reason) => (endStream ? endStream(reason) : (endedEarly = reason)));
      if (!release) return setResultAndStopExecution({ errors: [tooManyConnections()] });
      return {
        onSubscribeResult({ result, setResult }) {
          if (!(Symbol.asyncIterator in result)) return release();
          const wrapped = endable(result, release);
          endStream = wrapped.end;
          if (endedEarly) wrapped.end(endedEarly);
          setResult(wrapped.stream);
        },
        onSubscribeError: () => release(),
      };
    },
  };
}
