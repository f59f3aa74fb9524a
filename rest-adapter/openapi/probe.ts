import { type GraphQLSchema, type OperationDefinitionNode, getNullableType, isListType } from "graphql";
import { DomainError, type FieldErrors } from "../../src/platform/errors.ts";
import type { CompiledRoute } from "../execute.ts";
import type { RestRequest } from "../route.ts";
import {
  type Acceptance,
  bodyFieldSchema,
  hyperlinkTo,
  labelCandidates,
  PRIMITIVES,
  PROBE_UUID,
  queryParameterSchema,
} from "./candidates.ts";
import { enumsOfVariables, inputSchema, inputTypeAt, type JsonSchema } from "./json-schema.ts";
import { operationOf } from "./responses.ts";

/**
 * Learns a route's query parameters and body fields by running its `variables` on recording requests: which keys
 * it reads, which probe values it accepts (a field error naming the key is a rejection), and which keys it requires.
 */

type Outcome = { kind: "variables"; variables: Record<string, unknown> } | { kind: "fields"; fields: FieldErrors } | { kind: "failure" };
type Values = Record<string, unknown>;

interface Vocabulary {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  collections: string[];
  labels: string[][];
}

/** One place of the request that holds named values: the query string, the body, or an object nested in the body. */
interface Slot {
  run(values: Values): { outcome: Outcome; reads: string[] };
  blames(outcome: Outcome, key: string): boolean;
  inQuery: boolean;
  depth: number;
  vocabulary: Vocabulary;
}

interface Discovered {
  properties: Record<string, JsonSchema>;
  required: string[];
  sample: Values;
  /** Keys hidden by the sample's values (`a ?? b`, "either a or b"), explored together instead. */
  alternative: Values;
}

const MAX_ROUNDS = 12;
const MAX_DEPTH = 1;
const NOT_FIELD_NAMES = new Set(["toJSON", "then", "constructor", "valueOf", "toString", "__proto__"]);
const offersStructures = (slot: Slot) => !slot.inQuery && slot.depth < MAX_DEPTH;
const PARAMS = new Proxy({}, { get: (_, key) => (typeof key === "string" ? PROBE_UUID : undefined) }) as Record<string, string>;

/** Probing throws thousands of field errors; their stack traces would be most of its cost. */
function withoutStackTraces<T>(work: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return work();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function attempt(route: CompiledRoute, request: RestRequest): Outcome {
  try {
    return { kind: "variables", variables: route.variables?.(request) ?? {} };
  } catch (error) {
    const fields = error instanceof DomainError ? (error.extensions.fields as FieldErrors | undefined) : undefined;
    return fields ? { kind: "fields", fields } : { kind: "failure" };
  }
}

class RecordingQuery extends URLSearchParams {
  readonly reads = new Set<string>();
  override get(name: string) {
    this.reads.add(name);
    return super.get(name);
  }
  override getAll(name: string) {
    this.reads.add(name);
    return super.getAll(name);
  }
  override has(name: string, value?: string) {
    this.reads.add(name);
    return super.has(name, value);
  }
}

function recording(values: Values, reads: Set<string>): Values {
  const note = (key: string | symbol) => typeof key === "string" && !NOT_FIELD_NAMES.has(key) && reads.add(key);
  return new Proxy(values, {
    get: (target, key) => (note(key), Reflect.get(target, key)),
    has: (target, key) => (note(key), Reflect.has(target, key)),
  });
}

const score = (outcome: Outcome) =>
  outcome.kind === "variables" ? 0 : outcome.kind === "fields" ? -Object.values(outcome.fields).flat().length : -Infinity;

const without = (values: Values, key: string) => Object.fromEntries(Object.entries(values).filter(([k]) => k !== key));

const mentions = (message: string, key: string) => new RegExp(`(^|\\W)${key.replace(/\W/g, "\\$&")}(\\W|$)`).test(message);

/** The first path where two variable objects differ. */
function difference(a: unknown, b: unknown, path: Array<string | number> = []): Array<string | number> | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  if (a && b && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = difference((a as Values)[key], (b as Values)[key], [...path, Array.isArray(a) ? Number(key) : key]);
      if (found) return found;
    }
  }
  return path;
}

type Verdict = "accepted" | "rejected" | "inconclusive";

/** Judges values for `key`, given `context` for the other keys. Left unread, or breaking another key: inconclusive. */
function judge(slot: Slot, context: Values, key: string) {
  const baseline = score(slot.run(without(context, key)).outcome);
  return (value: unknown): Verdict => {
    const { outcome, reads } = slot.run({ ...context, [key]: value });
    if (!reads.includes(key)) return "inconclusive";
    if (outcome.kind === "failure" || slot.blames(outcome, key)) return "rejected";
    return score(outcome) >= baseline ? "accepted" : "inconclusive";
  };
}

/** Where a value at `key` lands in the variables: where two accepted values (or one and none) make them differ. */
function target(slot: Slot, context: Values, key: string, [first, second]: unknown[]) {
  const before = slot.run(second === undefined ? without(context, key) : { ...context, [key]: second }).outcome;
  const after = slot.run({ ...context, [key]: first }).outcome;
  return before.kind === "variables" && after.kind === "variables" ? difference(before.variables, after.variables) : undefined;
}

/** An object (or a list of objects) at `key`, explored as a slot of its own. */
function structured(slot: Slot, context: Values, key: string, asList: boolean) {
  const wrap = (value: unknown) => (asList ? [value] : value);
  const nested: Slot = {
    inQuery: false,
    depth: slot.depth + 1,
    vocabulary: slot.vocabulary,
    run: (values) => {
      const reads = new Set<string>();
      const { outcome } = slot.run({ ...context, [key]: wrap(recording(values, reads)) });
      return { outcome, reads: [...reads] };
    },
    blames: (outcome, nestedKey) =>
      slot.blames(outcome, nestedKey) || (outcome.kind === "fields" && (outcome.fields[key] ?? []).some((m) => mentions(m, nestedKey))),
  };
  const found = explore(nested);
  const value = wrap(found.sample);
  if (judge(slot, context, key)(value) !== "accepted") return undefined;
  const object = objectSchema(nested, found);
  return { value, schema: asList ? { type: "array", items: object } : object };
}

interface Offer {
  acceptance: Acceptance;
  inconclusive: boolean;
  /** The accepted values, most specific first: the one the probe keeps to get past this key. */
  values: unknown[];
}

function offer(slot: Slot, context: Values, key: string): Offer {
  const acceptance: Acceptance = { kinds: new Set(), collections: [], labels: [] };
  const values: unknown[] = [];
  let inconclusive = false;
  const verdict = judge(slot, context, key);
  const takes = (value: unknown) => {
    const result = verdict(value);
    inconclusive ||= result === "inconclusive";
    return result === "accepted";
  };
  for (const primitive of PRIMITIVES) {
    const value = slot.inQuery ? primitive.query : primitive.body;
    if (takes(value)) acceptance.kinds.add(primitive.kind), values.push(value);
  }
  const mayBeHyperlink = !acceptance.kinds.has("text") && (acceptance.kinds.has("uuid") || !acceptance.kinds.size);
  if (mayBeHyperlink) {
    acceptance.collections = slot.vocabulary.collections.filter((c) => takes(hyperlinkTo(c)));
    if (acceptance.collections.length) values.unshift(hyperlinkTo(acceptance.collections[0]));
  }
  if (offersStructures(slot)) {
    for (const asList of [false, true]) {
      const found = structured(slot, context, key, asList);
      if (found) acceptance[asList ? "list" : "object"] = found.schema, values.push(found.value);
    }
  }
  if (!values.length) {
    for (const spellings of slot.vocabulary.labels) {
      const label = spellings.find(takes);
      if (label !== undefined && !acceptance.labels.includes(label)) acceptance.labels.push(label);
    }
    values.push(...acceptance.labels);
  }
  return { acceptance, inconclusive, values };
}

/**
 * What `key` takes, tried among the values kept so far; when those hide it (`a ?? b`, "either a or b"), among the
 * values of the other keys that were hidden too.
 */
function classify(slot: Slot, contexts: { sample: Values; alternative: Values }, key: string) {
  let context = contexts.sample;
  let offered = offer(slot, context, key);
  if (!offered.values.length && offered.inconclusive) offered = offer(slot, (context = contexts.alternative), key);
  const value = offered.values[0];
  const landsOn = value === undefined ? undefined : target(slot, context, key, offered.values);
  const graphqlType = landsOn && inputTypeAt(slot.vocabulary.schema, slot.vocabulary.operation, landsOn);
  if (slot.inQuery) {
    const schema = queryParameterSchema(offered.acceptance);
    const landsInList = landsOn?.some((segment) => typeof segment === "number");
    const repeatable = landsInList || (graphqlType !== undefined && isListType(getNullableType(graphqlType)));
    return { value, context, schema: repeatable ? { type: "array", items: schema } : schema };
  }
  const schema = bodyFieldSchema(offered.acceptance, offersStructures(slot)) ?? (graphqlType ? inputSchema(graphqlType) : {});
  return { value, context, schema };
}

function explore(slot: Slot): Discovered {
  const found: Discovered = { properties: {}, required: [], sample: {}, alternative: {} };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const fresh = slot.run(found.sample).reads.filter((key) => !(key in found.properties));
    if (!fresh.length) break;
    for (const key of fresh) {
      const { value, context, schema } = classify(slot, found, key);
      found.properties[key] = schema;
      if (value === undefined) continue;
      if (context === found.alternative) found.alternative = { ...found.alternative, [key]: value };
      const kept = { ...found.sample, [key]: value };
      if (score(slot.run(kept).outcome) >= score(slot.run(found.sample).outcome)) found.sample = kept;
    }
  }
  found.required = requiredIn(slot, found.sample);
  return found;
}

const requiredIn = (slot: Slot, values: Values) =>
  Object.keys(values).filter((key) => slot.blames(slot.run(without(values, key)).outcome, key));

/** Required keys; when the hidden keys are an alternative set with required keys of its own, one of the two sets. */
function objectSchema(slot: Slot, { properties, required, alternative }: Discovered): JsonSchema {
  const alternativeRequired = requiredIn(slot, alternative);
  const requirement = alternativeRequired.length
    ? { oneOf: [{ required }, { required: alternativeRequired }] }
    : required.length
      ? { required }
      : {};
  return { type: "object", ...(Object.keys(properties).length ? { properties } : {}), ...requirement };
}

const fieldsIn = (outcome: Outcome) => (outcome.kind === "fields" ? outcome.fields : {});

export interface RouteInputs {
  query: Array<{ name: string; schema: JsonSchema; required: boolean }>;
  body?: JsonSchema;
}

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

export function probeInputs(route: CompiledRoute, schema: GraphQLSchema, collections: string[]): RouteInputs {
  if (!route.variables) return { query: [] };
  const operation = operationOf(route);
  const vocabulary: Vocabulary = { schema, operation, collections, labels: labelCandidates(enumsOfVariables(schema, operation)) };
  const querySlot: Slot = {
    inQuery: true,
    depth: 0,
    vocabulary,
    run: (values) => {
      const query = new RecordingQuery(values as Record<string, string>);
      return { outcome: attempt(route, { params: PARAMS, query, body: {} }), reads: [...query.reads] };
    },
    blames: (outcome, key) => key in fieldsIn(outcome),
  };
  const bodySlot: Slot = {
    ...querySlot,
    inQuery: false,
    run: (values) => {
      const reads = new Set<string>();
      return { outcome: attempt(route, { params: PARAMS, query: new URLSearchParams(), body: recording(values, reads) }), reads: [...reads] };
    },
  };
  return withoutStackTraces(() => {
    const query = explore(querySlot);
    const body = METHODS_WITH_BODY.has(route.method) ? explore(bodySlot) : undefined;
    return {
      query: Object.entries(query.properties).map(([name, schema]) => ({ name, schema, required: query.required.includes(name) })),
      body: body && Object.keys(body.properties).length ? objectSchema(bodySlot, body) : undefined,
    };
  });
}
