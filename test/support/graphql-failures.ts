/** What a client selects to read a mutation's typed failures (spread into the mutation's selection). */
export const FAILURE = `... on Error { __typename code message }
  ... on ValidationError { fields { path message } }
  ... on InvalidTransitionError { currentState allowedFrom }`;

/** A ValidationError's fields as `{ path: [messages] }`, to compare with the REST body. */
export function fieldsOf(failure: { fields?: Array<{ path: string; message: string }> }): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const { path, message } of failure.fields ?? []) (fields[path] ??= []).push(message);
  return fields;
}
