import { GraphQLError } from "graphql";
import { type FieldErrors, MISSING_OBJECT, WHOLE_INPUT } from "../src/platform/errors.ts";
import type { RequestBody } from "./body-contract.ts";

/**
 * The domain names its field errors as GraphQL does (`gracePeriodDays`, `input` for the whole input); REST callers get
 * Waldur's: the REST field of the route's body that fed the value (an item's field included), DRF's `non_field_errors`,
 * and DRF's message for a hyperlink to nothing.
 */

const NON_FIELD_ERRORS = "non_field_errors";
const INVALID_HYPERLINK = `Invalid hyperlink - ${MISSING_OBJECT}`;

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function restName(name: string, body: RequestBody | undefined): string {
  if (name === WHOLE_INPUT) return NON_FIELD_ERRORS;
  return body?.restNames.get(name) ?? snakeCase(name);
}

export function restFieldErrors(fields: FieldErrors, body?: RequestBody): FieldErrors {
  const renamed: FieldErrors = {};
  for (const [name, messages] of Object.entries(fields)) {
    const rest = restName(name, body);
    const isLink = Boolean(body?.links.has(rest));
    const restMessages = messages.map((message) => (isLink && message === MISSING_OBJECT ? INVALID_HYPERLINK : message));
    renamed[rest] = [...(renamed[rest] ?? []), ...restMessages];
  }
  return renamed;
}

/** An operation's error with its field errors renamed for REST; other errors as they are. */
export function withRestFieldNames(error: GraphQLError, body: RequestBody | undefined): GraphQLError {
  const fields = error.extensions?.fields as FieldErrors | undefined;
  if (!fields) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: { ...error.extensions, fields: restFieldErrors(fields, body) },
  });
}
