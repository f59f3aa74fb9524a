import type { RestRequest, RouteSpec } from "../route.ts";

export const byUuid = ({ params }: RestRequest) => ({ uuid: params.uuid });

/** `GET <base>/:uuid/`, answered by a query field that takes `uuid` and serialized by `fragment`. */
export const retrieveRoute = (base: string, summary: string, field: string, fragment: string): RouteSpec => ({
  method: "GET",
  path: `${base}/:uuid/`,
  summary,
  document: `query($uuid: ID!) { ${field}(uuid: $uuid) { ...${fragment} } }`,
  variables: byUuid,
  kind: "object",
});

/** `DELETE <base>/:uuid/` → 204, through a mutation that takes `uuid` (`selection` for object results). */
export const deleteRoute = (base: string, summary: string, mutation: string, selection = ""): RouteSpec => ({
  method: "DELETE",
  path: `${base}/:uuid/`,
  summary,
  document: `mutation($uuid: ID!) { ${mutation}(uuid: $uuid) ${selection} }`,
  variables: byUuid,
  kind: "empty",
  status: 204,
});
