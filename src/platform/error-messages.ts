import { GraphQLError } from "graphql";

/**
 * Error messages echo client input (graphql-js quotes a variable's value, a field name, a string token; the REST
 * adapter quotes a filter value). Everything here runs in one pass over the message: no regular expression, so no
 * input can make it super-linear.
 */

/** Characters a quoted value keeps before "…". */
export const MAX_ECHO_CHARS = 100;
/** The longest message sent; anything longer (many short quotes, or an unquoted echo) is cut with "…". */
export const MAX_MESSAGE_CHARS = 1000;

const CLOSING_QUOTE: Record<string, string> = { '"': '"', "“": "”" };

/** Every quoted run longer than MAX_ECHO_CHARS cut to its start and "…"; the whole message cut to MAX_MESSAGE_CHARS. */
export function boundedMessage(message: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < message.length; i++) {
    const closing = CLOSING_QUOTE[message[i]];
    if (!closing) continue;
    let end = i + 1;
    while (end < message.length && message[end] !== closing) end += message[end] === "\\" ? 2 : 1;
    if (end - i - 1 > MAX_ECHO_CHARS) {
      let keep = i + 1 + MAX_ECHO_CHARS;
      // Never cut an escape sequence or a surrogate pair in two.
      if (message[keep - 1] === "\\" || (message.charCodeAt(keep - 1) & 0xfc00) === 0xd800) keep -= 1;
      out += `${message.slice(from, keep)}…`;
      from = Math.min(end, message.length);
    }
    i = end;
  }
  out += message.slice(from);
  return out.length > MAX_MESSAGE_CHARS ? `${out.slice(0, MAX_MESSAGE_CHARS)}…` : out;
}

const HINT = "Did you mean ";

/** The message without graphql-js's "Did you mean …?" hints (and the blank before each), which map the schema. */
export function withoutSuggestionText(message: string): string {
  let out = "";
  let from = 0;
  for (let at = message.indexOf(HINT); at !== -1; at = message.indexOf(HINT, from)) {
    const end = message.indexOf("?", at + HINT.length);
    if (end === -1) break;
    out += message.slice(from, at).trimEnd();
    from = end + 1;
  }
  return out + message.slice(from);
}

/**
 * The error as a client may see it: echoes bounded and, unless `suggestions`, hints removed. Non-GraphQL errors and
 * errors that need no change are returned as they are.
 */
export function errorForClient<E extends Error>(error: E, suggestions: boolean): E {
  if (!(error instanceof GraphQLError)) return error;
  const message = boundedMessage(suggestions ? error.message : withoutSuggestionText(error.message));
  if (message === error.message) return error;
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  }) as unknown as E;
}

/** A REST error body (a detail, or field → messages, possibly nested) with every message bounded. */
export function boundedBody(body: unknown): unknown {
  if (typeof body === "string") return boundedMessage(body);
  if (Array.isArray(body)) return body.map(boundedBody);
  if (body && typeof body === "object") return Object.fromEntries(Object.entries(body).map(([key, value]) => [boundedMessage(key), boundedBody(value)]));
  return body;
}
