import {
  defaultTypeResolver,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  getArgumentValues,
  getVariableValues,
  GraphQLError,
  type GraphQLOutputType,
  type ResponsePath as Path,
  type GraphQLResolveInfo,
  isNonNullType,
  isObjectType,
  locatedError,
} from "graphql";
import type { Completion, FieldPlan, ObjectCompletion, OperationPlan } from "./compile.ts";

/** One execution of a plan: what graphql-js keeps in its execution context. */
interface Execution {
  plan: OperationPlan;
  contextValue: unknown;
  rootValue: unknown;
  variableValues: Record<string, unknown>;
  errors: GraphQLError[];
  /** Arguments with variables, coerced once per execution (a field under a list is resolved once per row). */
  variableArgs: Map<FieldPlan, Record<string, unknown>>;
}

/** A value in an error message (graphql-js's own `inspect` is not among its exports). */
const inspect = (value: unknown) => (typeof value === "string" ? JSON.stringify(value) : typeof value === "object" && value !== null ? Object.prototype.toString.call(value) : String(value));

type MaybePromise<T> = T | Promise<T>;
const isPromise = (value: unknown): value is Promise<unknown> => typeof value === "object" && value !== null && "then" in value && typeof value.then === "function";
const pathToArray = (path: Path | undefined) => {
  const keys: Array<string | number> = [];
  for (let at = path; at; at = at.prev) keys.push(at.key);
  return keys.reverse();
};

/** The executor's coerceError: what a resolver threw, as an Error. */
function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  if (typeof thrown === "object" && thrown !== null && "message" in thrown && typeof thrown.message === "string") return new Error(thrown.message);
  return new Error(String(thrown));
}

/** A field's error: null in a nullable position (noted in `errors`), or thrown on to the nearest nullable parent. */
function fieldError(run: Execution, thrown: unknown, fieldNodes: readonly FieldNode[], path: Path, type: GraphQLOutputType): null {
  if (thrown instanceof AggregateError) {
    let answer: null = null;
    for (const each of thrown.errors) answer = fieldError(run, each, fieldNodes, path, type);
    return answer;
  }
  const error = locatedError(asError(thrown), fieldNodes, pathToArray(path));
  if (isNonNullType(type) || error.extensions?.CRITICAL_ERROR) throw error;
  run.errors.push(error);
  return null;
}

function executeFields(run: Execution, object: ObjectCompletion, source: unknown, path: Path | undefined): MaybePromise<Record<string, unknown>> {
  const answer = object.emptyAnswer();
  let pending: { keys: string[]; values: Array<Promise<unknown>> } | undefined;
  try {
    for (const field of object.fields) {
      const value = executeField(run, field, source, path);
      if (!isPromise(value)) answer[field.responseName] = value;
      else if (!pending) pending = { keys: [field.responseName], values: [value] };
      else {
        pending.keys.push(field.responseName);
        pending.values.push(value);
      }
    }
  } catch (error) {
    if (!pending) throw error;
    const rethrow = () => {
      throw error;
    };
    return Promise.all(pending.values).then(rethrow, rethrow);
  }
  if (!pending) return answer;
  const { keys, values } = pending;
  return Promise.all(values).then((resolved) => {
    for (let i = 0; i < resolved.length; i++) answer[keys[i]] = resolved[i];
    return answer;
  });
}

async function executeSerially(run: Execution, object: ObjectCompletion): Promise<Record<string, unknown>> {
  const answer = object.emptyAnswer();
  for (const field of object.fields) answer[field.responseName] = await executeField(run, field, run.rootValue, undefined);
  return answer;
}

/**
 * A resolver's `info`, which is also its path (a field runs once per row, and this is the one object it takes): the
 * path's keys are its own, the rest is read off the plan. Its plan and execution are private fields, which JSON and
 * logs of a path do not see.
 */
class FieldInfo implements GraphQLResolveInfo, Path {
  readonly #run: Execution;
  readonly #field: FieldPlan;
  readonly key: string;
  readonly typename: string;
  constructor(
    run: Execution,
    field: FieldPlan,
    readonly prev: Path | undefined,
  ) {
    this.#run = run;
    this.#field = field;
    this.key = field.responseName;
    this.typename = field.parentType.name;
  }
  get path(): Path {
    return this;
  }
  get fieldName() {
    return this.#field.fieldDef.name;
  }
  get fieldNodes() {
    return this.#field.fieldNodes;
  }
  get returnType() {
    return this.#field.fieldDef.type;
  }
  get parentType() {
    return this.#field.parentType;
  }
  get schema() {
    return this.#run.plan.schema;
  }
  get fragments() {
    return this.#run.plan.fragments;
  }
  get rootValue() {
    return this.#run.rootValue;
  }
  get operation() {
    return this.#run.plan.operation;
  }
  get variableValues() {
    return this.#run.variableValues;
  }
}

function argumentsOf(run: Execution, field: FieldPlan) {
  let args = run.variableArgs.get(field);
  if (!args) run.variableArgs.set(field, (args = getArgumentValues(field.fieldDef, field.fieldNodes[0], run.variableValues)));
  return args;
}

function executeField(run: Execution, field: FieldPlan, source: unknown, parentPath: Path | undefined): unknown {
  const info = new FieldInfo(run, field, parentPath);
  const path: Path = info;
  try {
    const resolved = field.resolve(source, field.constantArgs ?? argumentsOf(run, field), run.contextValue, info);
    const completed = isPromise(resolved)
      ? resolved.then((value) => complete(run, field.completion, info, path, value))
      : complete(run, field.completion, info, path, resolved);
    if (!isPromise(completed)) return completed;
    return completed.then(undefined, (thrown) => fieldError(run, thrown, field.fieldNodes, path, field.fieldDef.type));
  } catch (thrown) {
    return fieldError(run, thrown, field.fieldNodes, path, field.fieldDef.type);
  }
}

function complete(run: Execution, completion: Completion, info: GraphQLResolveInfo, path: Path, value: unknown): unknown {
  if (value instanceof Error) throw value;
  if (completion.kind === "nonNull") {
    const completed = complete(run, completion.inner, info, path, value);
    if (completed === null) throw new Error(`Cannot return null for non-nullable field ${info.parentType.name}.${info.fieldName}.`);
    return completed;
  }
  if (value == null) return null;
  switch (completion.kind) {
    case "leaf":
      return serialize(completion.type, value);
    case "object":
      return completeObject(run, completion, info, path, value);
    case "list":
      return completeList(run, completion, info, path, value);
    case "abstract": {
      const runtimeType = (completion.type.resolveType ?? defaultTypeResolver)(value, run.contextValue, info, completion.type);
      if (isPromise(runtimeType)) return runtimeType.then((name) => completeObject(run, runtimeObject(run, completion, name, info, value), info, path, value));
      return completeObject(run, runtimeObject(run, completion, runtimeType, info, value), info, path, value);
    }
  }
}

function serialize(type: Extract<Completion, { kind: "leaf" }>["type"], value: unknown) {
  let serialized: unknown;
  try {
    serialized = type.serialize(value);
  } catch (error) {
    // As the executor does: a GraphQLError of a scalar's becomes a plain error, located at the field.
    if (error instanceof GraphQLError) throw new Error(error.message);
    throw error;
  }
  if (serialized == null) {
    throw new Error(`Expected \`${inspect(type)}.serialize(${inspect(value)})\` to return non-nullable value, returned: ${inspect(serialized)}`);
  }
  return serialized;
}

const isIterable = (value: unknown): value is Iterable<unknown> => typeof value === "object" && value !== null && Symbol.iterator in value;

function completeList(run: Execution, list: Extract<Completion, { kind: "list" }>, info: GraphQLResolveInfo, path: Path, value: unknown) {
  if (!isIterable(value)) throw new GraphQLError(`Expected Iterable, but did not find one for field "${info.parentType.name}.${info.fieldName}".`);
  const items: unknown[] = [];
  let promised = false;
  let index = 0;
  for (const item of value) {
    const itemPath: Path = { prev: path, key: index++, typename: undefined };
    try {
      const completed = isPromise(item) ? item.then((resolved) => complete(run, list.item, info, itemPath, resolved)) : complete(run, list.item, info, itemPath, item);
      if (isPromise(completed)) {
        promised = true;
        items.push(completed.then(undefined, (thrown) => fieldError(run, thrown, info.fieldNodes, itemPath, list.itemType)));
      } else items.push(completed);
    } catch (thrown) {
      items.push(fieldError(run, thrown, info.fieldNodes, itemPath, list.itemType));
    }
  }
  return promised ? Promise.all(items) : items;
}

function completeObject(run: Execution, object: ObjectCompletion, info: GraphQLResolveInfo, path: Path, value: unknown) {
  const wrongType = () => new GraphQLError(`Expected value of type "${object.type.name}" but got: ${inspect(value)}.`, { nodes: info.fieldNodes });
  if (object.type.isTypeOf) {
    const isTypeOf = object.type.isTypeOf(value, run.contextValue, info);
    if (isPromise(isTypeOf)) {
      return isTypeOf.then((holds) => {
        if (!holds) throw wrongType();
        return executeFields(run, object, value, path);
      });
    }
    if (!isTypeOf) throw wrongType();
  }
  return executeFields(run, object, value, path);
}

/** The object type an abstract type's value resolved to, checked as graphql-js checks it. */
function runtimeObject(run: Execution, abstract: Extract<Completion, { kind: "abstract" }>, name: unknown, info: GraphQLResolveInfo, value: unknown): ObjectCompletion {
  const { type } = abstract;
  const at = `for field "${info.parentType.name}.${info.fieldName}"`;
  const nodes = info.fieldNodes;
  if (name == null) {
    throw new GraphQLError(
      `Abstract type "${type.name}" must resolve to an Object type at runtime ${at}. Either the "${type.name}" type should provide a "resolveType" function or each possible type should provide an "isTypeOf" function.`,
      { nodes },
    );
  }
  if (isObjectType(name)) throw new GraphQLError("Support for returning GraphQLObjectType from resolveType was removed in graphql-js@16.0.0 please return type name instead.");
  if (typeof name !== "string") throw new GraphQLError(`Abstract type "${type.name}" must resolve to an Object type at runtime ${at} with value ${inspect(value)}, received "${inspect(name)}".`);
  const object = abstract.byType.get(name);
  if (object) return object;
  const named = run.plan.schema.getType(name);
  if (!named) throw new GraphQLError(`Abstract type "${type.name}" was resolved to a type "${name}" that does not exist inside the schema.`, { nodes });
  if (!isObjectType(named)) throw new GraphQLError(`Abstract type "${type.name}" was resolved to a non-object type "${name}".`, { nodes });
  throw new GraphQLError(`Runtime Object type "${name}" is not a possible type for "${type.name}".`, { nodes });
}

const response = (data: Record<string, unknown> | null, errors: GraphQLError[]): ExecutionResult => (errors.length ? { errors, data } : { data });

/**
 * Executes a plan as graphql-js's executor would execute its document: the same resolvers, info, paths, errors and
 * answer. Undefined when the variables do not coerce, which the executor reports in its own words.
 */
export function runPlan(plan: OperationPlan, args: ExecutionArgs): MaybePromise<ExecutionResult> | undefined {
  const variables = getVariableValues(plan.schema, plan.operation.variableDefinitions ?? [], args.variableValues ?? {}, { maxErrors: 50 });
  if (variables.errors) return undefined;
  const run: Execution = { plan, contextValue: args.contextValue, rootValue: args.rootValue, variableValues: variables.coerced, errors: [], variableArgs: new Map() };
  // What reaches the root is a field's located error (fieldError), bubbled up through non-null fields.
  const failed = (error: unknown) => {
    run.errors.push(error instanceof GraphQLError ? error : locatedError(asError(error), undefined));
    return response(null, run.errors);
  };
  try {
    const data = plan.operation.operation === "mutation" ? executeSerially(run, plan.root) : executeFields(run, plan.root, run.rootValue, undefined);
    return isPromise(data) ? data.then((answer) => response(answer, run.errors), failed) : response(data, run.errors);
  } catch (error) {
    return failed(error);
  }
}
