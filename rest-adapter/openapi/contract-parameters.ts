import type { CollectionContract, FilterReading, QueryParameters, UuidSpelling } from "../../src/collections/contract.ts";
import { collectionPaths } from "../../src/collections/rest-paths.ts";
import { restParameters } from "../collection-query.ts";
import type { JsonSchema } from "./json-schema.ts";

/** The query parameters of a list, straight from its collection's contract. */

const UUID: JsonSchema = { type: "string", format: "uuid" };
const DATE_TIME: JsonSchema = { type: "string", format: "date-time" };
const listOf = (items: JsonSchema): JsonSchema => ({ type: "array", items });

function uuidSchema(spelling: UuidSpelling): JsonSchema {
  if (spelling === "uuid") return UUID;
  if (spelling === "uuids") return listOf(UUID);
  const where = [spelling.url].flat().flatMap(collectionPaths).map((path) => `/api/${path}/`).join(", ");
  return { type: "string", format: "uri", description: `URL of an object of ${where} (its bare uuid is accepted too)` };
}

const SCHEMAS: { [K in FilterReading["kind"]]: (filter: Extract<FilterReading, { kind: K }>) => JsonSchema } = {
  uuids: () => UUID,
  choice: (filter) => listOf({ type: "string", enum: Object.keys(filter.labels) }),
  after: () => DATE_TIME,
  before: () => DATE_TIME,
  date: () => DATE_TIME,
  boolean: () => ({ type: "boolean" }),
  text: () => ({ type: "string" }),
  texts: () => listOf({ type: "string" }),
  int: () => ({ type: "integer" }),
  number: () => ({ type: "number" }),
};

const schemaOf = <F extends FilterReading>(filter: F) => (SCHEMAS[filter.kind] as (filter: F) => JsonSchema)(filter);

function orderingParameter(contract: CollectionContract) {
  const keys = Object.keys(contract.orderings).flatMap((key) => [key, `-${key}`]);
  return {
    name: "o",
    in: "query",
    description: `Ordering (comma-separated or repeated); default ${contract.defaultOrder.join(",")}`,
    schema: listOf({ type: "string", enum: keys }),
    style: "form",
    explode: false,
  };
}

/** A list's filters and `o=`, or the filters alone of a route that is not a list. */
export function contractParameters(contract: CollectionContract | QueryParameters) {
  const filters = restParameters(contract).map(({ name, filter, spelling }) => ({
    name,
    in: "query",
    ...(filter.description ? { description: filter.description } : {}),
    schema: spelling ? uuidSchema(spelling) : schemaOf(filter),
  }));
  return [...filters, ...("orderings" in contract && Object.keys(contract.orderings).length ? [orderingParameter(contract)] : [])];
}
