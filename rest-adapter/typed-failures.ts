import {
  type DocumentNode,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
  type SelectionNode,
  type InlineFragmentNode,
  isUnionType,
  Kind,
  parse,
} from "graphql";
import { DomainError, type ErrorCode, type FieldErrors } from "../src/platform/errors.ts";

/** The alias under which the adapter asks each mutation result which type it is; never part of a REST body. */
const OUTCOME = "_outcome";

/** What the adapter reads of a typed failure to answer as Waldur does. */
const FAILURE_SELECTION = parse(`{
  ${OUTCOME}: __typename
  ... on Error { restMessage code restFields { path message } }
}`).definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION ? definition.selectionSet.selections : []));

const isError = (type: GraphQLNamedType) => type.name === "Error" || (isObjectType(type) && type.getInterfaces().some((i) => i.name === "Error"));

/** The result type of a mutation that can return typed failures: its union's one member that is not an Error. */
export function resultTypeOf(schema: GraphQLSchema, field: FieldNode): GraphQLObjectType | undefined {
  const type = schema.getMutationType()?.getFields()[field.name.value]?.type;
  const named = type && getNamedType(type);
  if (!named || !isUnionType(named)) return undefined;
  const members = schema.getPossibleTypes(named);
  if (!members.some(isError)) return undefined;
  const results = members.filter((member) => !isError(member));
  return results.length === 1 ? results[0] : undefined;
}

/** What the adapter selects only to report failures, which is never part of a REST body. */
export const isFailureSelection = (schema: GraphQLSchema, selection: SelectionNode) =>
  (selection.kind === Kind.FIELD && selection.alias?.value === OUTCOME) ||
  (selection.kind === Kind.INLINE_FRAGMENT && selection.typeCondition !== undefined && isError(schema.getType(selection.typeCondition.name.value)!));

/**
 * A route's mutation document selects its result's fields as before the result became a union: they are read on the
 * result type, and the field also selects what the adapter needs to report a typed failure.
 */
function withFailures(field: FieldNode, resultType: string): FieldNode {
  const own = field.selectionSet?.selections ?? [];
  const fields = own.filter((selection) => selection.kind === Kind.FIELD);
  const onResult: InlineFragmentNode = {
    kind: Kind.INLINE_FRAGMENT,
    typeCondition: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: resultType } },
    selectionSet: { kind: Kind.SELECTION_SET, selections: fields },
  };
  const rest = own.filter((selection) => selection.kind !== Kind.FIELD);
  return {
    ...field,
    selectionSet: { kind: Kind.SELECTION_SET, selections: [...(fields.length ? [onResult] : []), ...rest, ...FAILURE_SELECTION] },
  };
}

/** Every mutation field that can return a typed failure also selects what the adapter needs to report it. */
export function selectingFailures(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  return {
    ...document,
    definitions: document.definitions.map((definition) => {
      if (definition.kind !== Kind.OPERATION_DEFINITION || definition.operation !== "mutation") return definition;
      const selections = definition.selectionSet.selections.map((selection) => {
        const resultType = selection.kind === Kind.FIELD ? resultTypeOf(schema, selection) : undefined;
        return resultType && selection.kind === Kind.FIELD ? withFailures(selection, resultType.name) : selection;
      });
      return { ...definition, selectionSet: { ...definition.selectionSet, selections } };
    }),
  };
}

interface Failure {
  [OUTCOME]: string;
  restMessage: string;
  code: ErrorCode;
  restFields: Array<{ path: string; message: string }> | null;
}

const isFailure = (value: Record<string, unknown>): value is Record<string, unknown> & Failure =>
  typeof value === "object" && typeof value[OUTCOME] === "string" && typeof value.code === "string" && typeof value.restMessage === "string";

/** The domain error a mutation returned as a typed failure, if it did. */
export function failureOf(value: Record<string, unknown> | null | undefined): DomainError | undefined {
  if (!value || !isFailure(value)) return undefined;
  const fields = value.restFields?.reduce<FieldErrors>((all, { path, message }) => {
    (all[path] ??= []).push(message);
    return all;
  }, {});
  return new DomainError(value.code, value.restMessage, { fields });
}

/** A result as REST shows it: without the type name the adapter asked for. */
export function withoutOutcome(value: Record<string, unknown> | null | undefined) {
  if (!value || typeof value !== "object" || !(OUTCOME in value)) return value;
  const { [OUTCOME]: _, ...result } = value;
  return result;
}
