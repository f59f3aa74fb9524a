import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpOptions, startTestApp, type TestApp } from "../../test/support/app.ts";
import { globalId } from "../../test/support/global-ids.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Sent {
  body?: Record<string, unknown>;
  raw?: string;
  token?: boolean;
  headers?: Record<string, string>;
}

/** The same request over a real socket twice: as sent (the prepared path when it qualifies), and as yoga alone answers it. */
async function bothWays({ body, raw, token = true, headers = {} }: Sent) {
  const send = async (payload: HttpOptions) => {
    const response = await t.socketHttp("POST", "/graphql", { ...payload, token: token ? t.world.tokens.staff : undefined, headers: { "content-type": "application/json", ...headers } });
    return { status: response.status, contentType: response.headers.get("content-type"), body: response.body };
  };
  // `extensions` is a parameter only yoga reads: a body carrying it is always handed over.
  const asSent = await send(body ? { raw: JSON.stringify(body) } : { raw });
  const byYoga = await send(body ? { raw: JSON.stringify({ ...body, extensions: {} }) } : { raw });
  return { asSent, byYoga };
}

const PAGE = `query Page($first: Int) { offeringUsers(first: $first) { totalCount nodes { uuid state user { username } offering { name } } } }`;

describe("POST /graphql of a prepared document answers as yoga does", () => {
  const cases: Array<[string, Sent]> = [
    ["a query", { body: { query: "{ __typename }" } }],
    ["a query with variables, relations and a total", { body: { query: PAGE, variables: { first: 2 } } }],
    ["the same again (now prepared)", { body: { query: PAGE, variables: { first: 3 } } }],
    ["variables of the wrong type", { body: { query: PAGE, variables: { first: "two" } } }],
    ["a field the anonymous viewer may not read", { body: { query: PAGE, variables: { first: 1 } }, token: false }],
    ["one of two operations, chosen by name", { body: { query: `query A { __typename } query B { viewer { username } }`, operationName: "B" } }],
    ["two operations and no name", { body: { query: `query A { __typename } query B { __typename }` } }],
    ["a field that does not exist", { body: { query: "{ noSuchField }" } }],
    ["a document that does not parse", { body: { query: "{ offeringUsers(" } }],
    ["a subscription asked for as JSON", { body: { query: "subscription { offeringUserChanged { state } }" }, headers: { accept: "application/json" } }],
    ["a body that is not JSON", { raw: "{ query" }],
    ["variables that are not an object", { body: { query: "{ __typename }", variables: [1] } }],
    ["an Accept of graphql-response+json", { body: { query: "{ noSuchField }" }, headers: { accept: "application/graphql-response+json" } }],
  ];
  it.each(cases)("%s", async (_name, sent) => {
    const { asSent, byYoga } = await bothWays(sent);
    expect(asSent).toEqual(byYoga);
  });

  it("a mutation: its typed failure, and its effect once", async () => {
    const ou = await t.world.offeringUser("OK");
    const mutation = `mutation($id: ID!) { updateOfferingUserComments(input: { id: $id, serviceProviderComment: "prepared" }) { __typename ... on OfferingUser { serviceProviderComment } ... on NotFoundError { message } } }`;
    const missing = await bothWays({ body: { query: mutation, variables: { id: globalId("OfferingUser", "0123456789ab4def8123456789abcdef") } } });
    expect(missing.asSent).toEqual(missing.byYoga);
    expect(missing.asSent.body.data.updateOfferingUserComments.__typename).toBe("NotFoundError");

    const done = await t.socketHttp("POST", "/graphql", { token: t.world.tokens.staff, body: { query: mutation, variables: { id: globalId("OfferingUser", ou.uuid) } } });
    expect(done.body).toEqual({ data: { updateOfferingUserComments: { __typename: "OfferingUser", serviceProviderComment: "prepared" } } });
  });
});
