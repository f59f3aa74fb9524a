import { encodeGlobalID } from "@pothos/plugin-relay";
import type { CollectionNames, NodeTypeName } from "../src/collections/type-names.ts";
import { type BodyFields, type RequestBody, withBody } from "./body-contract.ts";
import { readFilters, readOrdering } from "./collection-query.ts";
import { compact } from "./input.ts";
import type { RestRequest, RouteSpec } from "./route.ts";

export const byUuid = ({ params }: RestRequest) => ({ uuid: params.uuid });

/** The global id of the `typename` object whose uuid the path names, as mutations take it (`input: { id }`). */
export const pathId = (typename: NodeTypeName, { params }: RestRequest) => encodeGlobalID(typename, params.uuid);

/** The variables of a mutation that acts on the path's object and takes nothing more: `{ id }`. */
export const byId = (typename: NodeTypeName) => (request: RestRequest) => ({ id: pathId(typename, request) });

/**
 * `GET <base>/:uuid/`, answered by the collection's record field and serialized by `<Name>Rest` unless named; or by a
 * query field that is no collection's record, named with its serializer.
 */
export function retrieveRoute(base: string, summary: string, collection: CollectionNames, fragment?: string): RouteSpec;
export function retrieveRoute(base: string, summary: string, field: string, fragment: string): RouteSpec;
export function retrieveRoute(base: string, summary: string, record: CollectionNames | string, fragment?: string): RouteSpec {
  const [field, serializer] = typeof record === "string" ? [record, fragment] : [record.recordField, fragment ?? `${record.name}Rest`];
  if (!field) throw new Error(`GET ${base}/:uuid/: the collection declares no record field`);
  return {
    method: "GET",
    path: `${base}/:uuid/`,
    summary,
    document: `query($uuid: ID!) { ${field}(uuid: $uuid) { ...${serializer} } }`,
    variables: byUuid,
    kind: "object",
  };
}

/**
 * `DELETE <base>/:uuid/` → 204, through the collection's delete mutation, `delete<Node>` (`input: { id }` of its node's
 * global id, a `Deletion` result).
 */
export function deleteRoute(base: string, summary: string, { typeName }: CollectionNames): RouteSpec {
  if (!typeName) throw new Error(`DELETE ${base}/:uuid/: the collection's node is no model's, and has no global ids`);
  return {
    method: "DELETE",
    path: `${base}/:uuid/`,
    summary,
    document: `mutation($id: ID!) { delete${typeName}(input: { id: $id }) { uuid } }`,
    variables: byId(typeName),
    kind: "empty",
    status: 204,
  };
}

/**
 * `POST <path>` → 201 with the new object serialized by `fragment`, through a create mutation that takes the body as
 * its `input` (of type `<Mutation>Input` unless named).
 */
export const createRoute = <F extends BodyFields>(
  path: string,
  summary: string,
  mutation: string,
  fragment: string,
  body: RequestBody<F>,
  inputType = `${mutation[0].toUpperCase()}${mutation.slice(1)}Input`,
): RouteSpec => ({
  method: "POST",
  path,
  summary,
  document: `mutation($input: ${inputType}!) { ${mutation}(input: $input) { ...${fragment} } }`,
  ...withBody(body, (input) => ({ input })),
  kind: "object",
  status: 201,
});

interface ListRoute {
  path: string;
  summary: string;
  /** The collection as its GraphQL declaration named it: its inputs (`<name>Filter`, `<name>Order`), list field and contract. */
  collection: CollectionNames;
  /** The serializer: `<name>Rest` unless named. */
  fragment?: string;
}

/** `GET <path>`: a paged list of the collection's list field, whose query string is read by the collection's contract. */
export const listRoute = ({ path, summary, collection, fragment = `${collection.name}Rest` }: ListRoute): RouteSpec => {
  const { name, listField, contract } = collection;
  return {
    method: "GET",
    path,
    summary,
    document: `query($filter: ${name}Filter, $orderBy: [${name}Order!], $first: Int, $offset: Int) {
    ${listField}(filter: $filter, orderBy: $orderBy, first: $first, offset: $offset) { totalCount nodes { ...${fragment} } } }`,
    variables: ({ query }) => compact({ filter: readFilters(contract, query), orderBy: readOrdering(contract, query) }),
    kind: "list",
    contract,
  };
};
