import { decodeGlobalID } from "@pothos/plugin-relay";
import { type DomainError, notFound, NotFoundError, PermissionDeniedError, ValidationError } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import type { NodeTypeName } from "../collections/type-names.ts";
import { builder, type Types } from "./builder.ts";

/** Every mutation takes one `input: <Mutation>Input!`. */
export const inputTypeName = (mutation: string) => `${mutation[0].toUpperCase()}${mutation.slice(1)}Input`;

/** The input field naming the object a mutation acts on: its global id, as `node(id:)` takes it. */
export const objectIdField = (t: PothosSchemaTypes.InputFieldBuilder<Types, "InputObject">) =>
  t.id({ required: true, description: "The global id of the object to act on" });

/** The input of a mutation that names one object and nothing more: `{ id }`. */
export const idInput = (mutation: string) =>
  builder.inputType(inputTypeName(mutation), { fields: (t) => ({ id: objectIdField(t) }) });

/**
 * The uuid of the `typename` object that global id `id` names. An id that is malformed, names another type or
 * names nothing the viewer may see is one and the same NOT_FOUND: the caller learns nothing from which it was.
 */
export function uuidOf(typename: NodeTypeName, id: string | number): string {
  const decoded = decodeOrNull(String(id));
  const uuid = decoded?.typename === typename ? parseUuid(decoded.id) : null;
  if (!uuid) throw notFound();
  return uuid;
}

function decodeOrNull(id: string) {
  try {
    return decodeGlobalID(id);
  } catch {
    return null;
  }
}

// plugin-errors types the constructors it matches thrown errors against as taking any arguments.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Failure = new (...args: any[]) => DomainError;

/**
 * A mutation's result: its object or one of `failures`, the typed failures it can return (graphql/errors.ts), as the
 * union `<Mutation>Result`; null only when an error went to `errors[]` (authentication, rate limits, outages).
 */
export const resultOr = (...failures: Array<Failure | readonly Failure[]>) =>
  ({ errors: { types: [...new Set(failures.flat())] }, nullable: true as const });

/** A mutation on an existing object: its id names nothing the viewer may see, or the viewer may not do this to it. */
export const ON_OBJECT = [NotFoundError, PermissionDeniedError] as const;
/** A mutation that makes something: the viewer may not, or the input is refused (a missing reference included). */
export const CREATES = [PermissionDeniedError, ValidationError] as const;
