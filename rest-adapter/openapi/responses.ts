import {
  type DirectiveNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  GraphQLNonNull,
  GraphQLString,
  Kind,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
} from "graphql";
import type { CompiledRoute } from "../execute.ts";
import { isFailureSelection, resultTypeOf } from "../typed-failures.ts";
import { type JsonSchema, leafSchema, orNull } from "./json-schema.ts";

interface Walked {
  schema: JsonSchema;
  /** A value of this shape whose leaves are markers, to see what a route's `shape` makes of it. */
  sample: unknown;
}

interface SelectedField {
  key: string;
  type: GraphQLOutputType;
  selectionSet?: SelectionSetNode;
  always: boolean;
}

const isConditional = (directives: readonly DirectiveNode[] | undefined) =>
  Boolean(directives?.some((d) => d.name.value === "include" || d.name.value === "skip"));

export const operationOf = (route: CompiledRoute) =>
  route.parsed.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;

/** Fragments become named component schemas: `OfferingUserRest` → `OfferingUser`. */
const componentName = (fragment: string) => fragment.replace(/Rest$/, "");

/** Reads one route's selection against the GraphQL schema: aliases are Waldur's property names. */
class SelectionWalker {
  private readonly leaves = new Map<string, JsonSchema>();
  private readonly composites = new Map<object, JsonSchema>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
    private readonly components: Record<string, JsonSchema>,
  ) {}

  walk(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): Walked {
    const walked = isNonNullType(type) ? this.nonNull(type.ofType, selectionSet) : this.nonNull(type, selectionSet);
    const schema = isNonNullType(type) ? walked.schema : orNull(walked.schema);
    if (typeof walked.sample === "string") this.leaves.set(walked.sample, schema);
    else this.composites.set(walked.sample as object, schema);
    return { schema, sample: walked.sample };
  }

  private nonNull(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): Walked {
    if (isListType(type)) {
      const item = this.walk(type.ofType, selectionSet);
      return { schema: { type: "array", items: item.schema }, sample: [item.sample] };
    }
    if (isLeafType(type)) return { schema: leafSchema(type), sample: `\u0001leaf ${this.leaves.size}` };
    const sole = selectionSet?.selections.length === 1 ? selectionSet.selections[0] : undefined;
    if (sole?.kind === Kind.FRAGMENT_SPREAD) return this.component(sole.name.value);
    return this.object(type as GraphQLCompositeType, selectionSet);
  }

  private component(fragmentName: string): Walked {
    const fragment = this.fragments.get(fragmentName)!;
    const walked = this.object(this.schema.getType(fragment.typeCondition.name.value) as GraphQLCompositeType, fragment.selectionSet);
    this.components[componentName(fragmentName)] ??= walked.schema;
    return { schema: { $ref: `#/components/schemas/${componentName(fragmentName)}` }, sample: walked.sample };
  }

  object(type: GraphQLCompositeType, selectionSet: SelectionSetNode | undefined): Walked {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const sample: Record<string, unknown> = {};
    for (const field of this.fields(type, selectionSet?.selections ?? [], true)) {
      const walked = this.walk(field.type, field.selectionSet);
      properties[field.key] = walked.schema;
      sample[field.key] = walked.sample;
      if (field.always && !required.includes(field.key)) required.push(field.key);
    }
    return { schema: { type: "object", properties, required, additionalProperties: false }, sample };
  }

  fields(type: GraphQLCompositeType, selections: readonly SelectionNode[], always: boolean): SelectedField[] {
    return selections.flatMap((selection): SelectedField[] => {
      if (isFailureSelection(this.schema, selection)) return [];
      const stillAlways = always && !isConditional(selection.directives);
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const hasFields = isObjectType(type) || isInterfaceType(type);
        const fieldType = name !== "__typename" && hasFields ? type.getFields()[name]!.type : GraphQLString;
        return [{ key: selection.alias?.value ?? name, type: fieldType, selectionSet: selection.selectionSet, always: stillAlways }];
      }
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? this.fragments.get(selection.name.value)! : selection;
      const condition = fragment.typeCondition ? (this.schema.getType(fragment.typeCondition.name.value) as GraphQLCompositeType) : type;
      return this.fields(condition, fragment.selectionSet.selections, stillAlways && condition === type);
    });
  }

  /** The schema of what a route's `shape` returned: markers and sample objects map back to their schemas. */
  describe(value: unknown): JsonSchema {
    if (typeof value === "string") return this.leaves.get(value) ?? { type: "string", examples: [value] };
    if (value === null) return { type: "null" };
    if (typeof value === "number") return { type: Number.isInteger(value) ? "integer" : "number" };
    if (typeof value === "boolean") return { type: "boolean" };
    if (typeof value !== "object") return {};
    const known = this.composites.get(value);
    if (known) return known;
    if (Array.isArray(value)) return { type: "array", items: value.length ? this.describe(value[0]) : {} };
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return {
      type: "object",
      properties: Object.fromEntries(entries.map(([key, v]) => [key, this.describe(v)])),
      required: entries.map(([key]) => key),
      additionalProperties: false,
    };
  }
}

/**
 * Response schemas of routes, derived from their compiled documents. Fragments become shared components.
 * `list` routes: the schema of one item (`nodes`); `object` routes: the body (after `shape`); `empty`: none.
 */
export class ResponseSchemas {
  readonly components: Record<string, JsonSchema> = {};

  constructor(private readonly schema: GraphQLSchema) {}

  of(route: CompiledRoute): JsonSchema | undefined {
    if (route.kind === "empty") return undefined;
    const fragments = new Map(
      route.parsed.definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    const walker = new SelectionWalker(this.schema, fragments, this.components);
    const operation = operationOf(route);
    const [root] = walker.fields(this.schema.getRootType(operation.operation)!, operation.selectionSet.selections, true);
    // A mutation's failures are REST errors, so its body is its result type, never null.
    const rootField = operation.selectionSet.selections[0];
    const result = rootField.kind === Kind.FIELD ? resultTypeOf(this.schema, rootField) : undefined;
    // A lookup's null is REST's 404, so an object route's body is never null (unless the route decides its status).
    const bodyType = result ?? (route.kind === "object" && !route.statusOf && !isNonNullType(root.type) ? root.type : undefined);
    const value = walker.walk(bodyType ? new GraphQLNonNull(bodyType) : root.type, root.selectionSet);
    if (route.kind === "list") return (this.resolve(value.schema).properties as Record<string, JsonSchema>).nodes.items as JsonSchema;
    if (!route.shape) return value.schema;
    try {
      return walker.describe(route.shape(value.sample));
    } catch {
      return {};
    }
  }

  /** A schema with a top-level `$ref` replaced by the component it names. */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = typeof schema.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : undefined;
    return ref ? this.components[ref] : schema;
  }
}
