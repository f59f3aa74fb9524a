import { readFileSync } from "node:fs";

/**
 * Waldur's py-client models (extracted by scripts/waldur/extract-contract.py into operations.json) and a check that a
 * response parses with them as the client's `from_dict` would, and with the declared types and nullability.
 */

interface FieldSpec {
  type: string;
  nullable: boolean;
}
interface ModelSpec {
  required: Record<string, FieldSpec>;
  optional: Record<string, FieldSpec>;
}
export interface OperationSpec {
  operation: string;
  method: string;
  path: string;
  served: string;
  query: Record<string, { type: string; enum?: string[] }>;
  body: { model: string } | null;
  response: { model: string | null; list: boolean } | null;
  /** The statuses Waldur's schema documents as answers (py-client refuses a 404 of any operation even so). */
  statuses: number[];
}
interface WaldurContract {
  operations: OperationSpec[];
  models: Record<string, ModelSpec>;
  enums: Record<string, Array<string | number>>;
}

export const WALDUR: WaldurContract = JSON.parse(readFileSync(new URL("./operations.json", import.meta.url), "utf8"));

/** The py-client operation of a served route (`GET /api/marketplace-orders/:uuid/`), if Waldur has one. */
export const waldurOperation = (method: string, servedPath: string) =>
  WALDUR.operations.find((op) => op.method === method && op.served === servedPath);

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function typeProblems(type: string, value: unknown, at: string): string[] {
  const alternatives = type.split("|");
  if (alternatives.length > 1) {
    const each = alternatives.map((alternative) => typeProblems(alternative, value, at));
    return each.some((problems) => problems.length === 0) ? [] : each.flat();
  }
  const list = /^list\[(.*)\]$/.exec(type);
  if (list) return Array.isArray(value) ? value.flatMap((item, i) => typeProblems(list[1], item, `${at}[${i}]`)) : [`${at}: expected a list`];
  if (type.startsWith("model:")) return isObject(value) ? modelProblems(type.slice(6), value, at) : [`${at}: expected an object`];
  if (type.startsWith("enum:")) {
    const values = WALDUR.enums[type.slice(5)] ?? [];
    return values.includes(value as string) ? [] : [`${at}: ${JSON.stringify(value)} is not one of ${type}`];
  }
  const checks: Record<string, (v: unknown) => boolean> = {
    str: (v) => typeof v === "string",
    int: (v) => Number.isInteger(v),
    float: (v) => typeof v === "number" || (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))),
    bool: (v) => typeof v === "boolean",
    uuid: (v) => typeof v === "string" && UUID.test(v),
    datetime: (v) => typeof v === "string" && !Number.isNaN(Date.parse(v)),
    date: (v) => typeof v === "string" && DATE.test(v),
    any: () => true,
  };
  const check = checks[type];
  if (!check) return [`${at}: unknown type ${type}`];
  return check(value) ? [] : [`${at}: ${JSON.stringify(value)?.slice(0, 80)} is not ${type}`];
}

function fieldProblems(spec: FieldSpec, value: unknown, at: string): string[] {
  if (value === null) return spec.nullable ? [] : [`${at}: null where the model is not nullable`];
  return typeProblems(spec.type, value, at);
}

/** Every way `value` fails to parse as py-client's `model`: missing required fields, wrong types, nulls. */
export function modelProblems(model: string, value: Record<string, unknown>, at = model): string[] {
  const spec = WALDUR.models[model];
  if (!spec) return [`${at}: unknown model ${model}`];
  const problems: string[] = [];
  for (const [field, fieldSpec] of Object.entries(spec.required)) {
    if (!(field in value)) problems.push(`${at}.${field}: required field missing`);
    else problems.push(...fieldProblems(fieldSpec, value[field], `${at}.${field}`));
  }
  for (const [field, fieldSpec] of Object.entries(spec.optional)) {
    if (field in value) problems.push(...fieldProblems(fieldSpec, value[field], `${at}.${field}`));
  }
  return problems;
}

/** The problems of a whole response body of an operation (a list's items each checked). */
export function responseProblems(operation: OperationSpec, body: unknown): string[] {
  const model = operation.response?.model;
  if (!model) return [];
  const items = operation.response?.list ? (Array.isArray(body) ? body : [body]) : [body];
  return items.flatMap((item, i) => (isObject(item) ? modelProblems(model, item, `${model}#${i}`) : [`${model}#${i}: expected an object`]));
}
