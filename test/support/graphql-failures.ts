import { getNamedType, isUnionType } from "graphql";
import { schema } from "../../src/schema.ts";

/**
 * What a client selects to read the typed failures of `mutation` (spread into its selection): every failure's message,
 * and the fields or states of those its union lists. A union lists only what its mutation can produce, so the
 * selection is per mutation.
 */
export function failuresOf(mutation: string): string {
  const type = schema.getMutationType()?.getFields()[mutation]?.type;
  const union = type && getNamedType(type);
  if (!union || !isUnionType(union)) throw new Error(`${mutation} has no result union`);
  const parts = ["... on Error { __typename code message }"];
  for (const member of union.getTypes()) {
    if (member.name === "ValidationError") parts.push("... on ValidationError { fields { path message } }");
    if (member.getInterfaces().some((i) => i.name === "InvalidTransitionError")) parts.push(`... on ${member.name} { currentState allowedFrom }`);
  }
  return parts.join("\n  ");
}

/** A ValidationError's fields as `{ path: [messages] }`, to compare with the REST body. */
export function fieldsOf(failure: { fields?: Array<{ path: string; message: string }> }): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const { path, message } of failure.fields ?? []) (fields[path] ??= []).push(message);
  return fields;
}
