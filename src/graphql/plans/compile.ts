import {
  defaultFieldResolver,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getOperationAST,
  type GraphQLAbstractType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLLeafType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isAbstractType,
  isLeafType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  TypeNameMetaFieldDef,
  typeFromAST,
  type ValueNode,
} from "graphql";

/** How a field's resolved value becomes its answer, decided once from the field's type and selection. */
export type Completion =
  | { kind: "nonNull"; inner: Completion }
  | { kind: "list"; item: Completion; itemType: GraphQLOutputType }
  | { kind: "leaf"; type: GraphQLLeafType }
  | ObjectCompletion
  | { kind: "abstract"; type: GraphQLAbstractType; byType: Map<string, ObjectCompletion> };

export interface ObjectCompletion {
  kind: "object";
  type: GraphQLObjectType;
  fields: FieldPlan[];
  /** An answer with every field's key in place (undefined), in order. */
  emptyAnswer: () => Record<string, unknown>;
}

export interface FieldPlan {
  responseName: string;
  fieldNodes: FieldNode[];
  fieldDef: GraphQLField<unknown, unknown>;
  parentType: GraphQLObjectType;
  resolve: GraphQLFieldResolver<unknown, unknown>;
  /** The arguments, coerced once, when none of them is a variable; otherwise coerced per execution. */
  constantArgs?: Record<string, unknown>;
  completion: Completion;
}

export interface OperationPlan {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  /** The root type's selection. */
  root: ObjectCompletion;
}

/** A selection the plans leave to the executor; the message says which, for debugging. */
class Unplanned extends Error {}

const hasVariable = (value: ValueNode): boolean =>
  value.kind === Kind.VARIABLE ||
  (value.kind === Kind.LIST && value.values.some(hasVariable)) ||
  (value.kind === Kind.OBJECT && value.fields.some((field) => hasVariable(field.value)));

function typeConditionHolds(schema: GraphQLSchema, condition: FragmentDefinitionNode["typeCondition"] | undefined, type: GraphQLObjectType) {
  if (!condition) return true;
  const conditionType = typeFromAST(schema, condition);
  if (conditionType === type) return true;
  return conditionType !== undefined && isAbstractType(conditionType) && schema.isSubType(conditionType, type);
}

/** The spec's CollectFields for a document without directives: response names in order, each with its field nodes. */
function collectFields(plan: Pick<OperationPlan, "schema" | "fragments">, type: GraphQLObjectType, selectionSets: SelectionSetNode[]) {
  const fields = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  const visit = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.directives?.length) throw new Unplanned("directives");
      if (selection.kind === Kind.FIELD) {
        const name = selection.alias?.value ?? selection.name.value;
        // Answers are object literals (emptyAnswerOf), in which this key sets the prototype.
        if (name === "__proto__") throw new Unplanned("__proto__ as a response name");
        fields.set(name, [...(fields.get(name) ?? []), selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (typeConditionHolds(plan.schema, selection.typeCondition, type)) visit(selection.selectionSet);
      } else {
        const fragment = plan.fragments[selection.name.value];
        if (visited.has(selection.name.value) || !fragment) continue;
        visited.add(selection.name.value);
        if (fragment.directives?.length) throw new Unplanned("directives");
        if (typeConditionHolds(plan.schema, fragment.typeCondition, type)) visit(fragment.selectionSet);
      }
    }
  };
  for (const selectionSet of selectionSets) visit(selectionSet);
  return fields;
}

/**
 * An object literal with the fields' keys, which V8 lays out with every property in the object. An object given its
 * keys one by one as computed names goes to V8's slow dictionary mode past a dozen of them (REST's records have 27).
 */
function emptyAnswerOf(fields: FieldPlan[]): () => Record<string, unknown> {
  const keys = fields.map((field) => `${JSON.stringify(field.responseName)}: undefined`).join(", ");
  return new Function(`return () => ({ ${keys} });`)();
}

function objectCompletion(plan: Pick<OperationPlan, "schema" | "fragments">, type: GraphQLObjectType, selectionSets: SelectionSetNode[]): ObjectCompletion {
  const fields: FieldPlan[] = [];
  for (const [responseName, fieldNodes] of collectFields(plan, type, selectionSets)) {
    const name = fieldNodes[0].name.value;
    const fieldDef = name === TypeNameMetaFieldDef.name ? TypeNameMetaFieldDef : type.getFields()[name];
    // __schema and __type (introspection) and unknown fields are the executor's.
    if (!fieldDef) throw new Unplanned(`field ${type.name}.${name}`);
    const subSelections = fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
    const variableArgs = fieldNodes[0].arguments?.some((argument) => hasVariable(argument.value));
    fields.push({
      responseName,
      fieldNodes,
      fieldDef,
      parentType: type,
      resolve: fieldDef.resolve ?? defaultFieldResolver,
      constantArgs: variableArgs ? undefined : getArgumentValues(fieldDef, fieldNodes[0], {}),
      completion: completion(plan, fieldDef.type, subSelections),
    });
  }
  return { kind: "object", type, fields, emptyAnswer: emptyAnswerOf(fields) };
}

function completion(plan: Pick<OperationPlan, "schema" | "fragments">, type: GraphQLOutputType, selectionSets: SelectionSetNode[]): Completion {
  if (type instanceof GraphQLNonNull) return { kind: "nonNull", inner: completion(plan, type.ofType, selectionSets) };
  if (type instanceof GraphQLList) return { kind: "list", item: completion(plan, type.ofType, selectionSets), itemType: type.ofType };
  if (isLeafType(type)) return { kind: "leaf", type };
  if (type instanceof GraphQLObjectType) return objectCompletion(plan, type, selectionSets);
  const byType = new Map(plan.schema.getPossibleTypes(type).map((possible) => [possible.name, objectCompletion(plan, possible, selectionSets)]));
  return { kind: "abstract", type, byType };
}

/**
 * The plan of a query's or mutation's operation: every field's definition, resolver, constant arguments and the
 * completion of its value, worked out once. Undefined for what the executor keeps: subscriptions, directives in the
 * selection (@skip, @include, @defer, @stream), introspection, and documents it would reject.
 */
export function compilePlan(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): OperationPlan | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation === "subscription") return undefined;
  const rootType = operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  if (!rootType) return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  try {
    return { schema, operation, fragments, root: objectCompletion({ schema, fragments }, rootType, [operation.selectionSet]) };
  } catch {
    // Unplanned, or arguments the executor is to reject in its own words.
    return undefined;
  }
}
