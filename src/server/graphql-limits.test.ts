import { readFileSync } from "node:fs";
import { print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileRoutes } from "../../rest-adapter/execute.ts";
import { REST_API } from "../modules.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { internalSchema } from "../schema.ts";
import { loadGraphqlSettings } from "../platform/settings/graphql-settings.ts";
import { createGraphqlServer } from "./yoga.ts";

let t: TestApp;
let production: TestApp;
beforeAll(async () => {
  [t, production] = await Promise.all([startTestApp(), startTestApp(loadGraphqlSettings({ NODE_ENV: "production" }))]);
});
afterAll(() => Promise.all([t.close(), production.close()]));

const JSON_HEADERS = { "content-type": "application/json" };
/** The limits docs/graphql.md tabulates: environment variable and setting. */
const LIMITS = [
  ["GRAPHQL_MAX_DEPTH", "graphqlMaxDepth"],
  ["GRAPHQL_MAX_ALIASES", "graphqlMaxAliases"],
  ["GRAPHQL_MAX_TOKENS", "graphqlMaxTokens"],
  ["GRAPHQL_MAX_COST", "graphqlMaxCost"],
  ["GRAPHQL_MAX_DIRECTIVES", "graphqlMaxDirectives"],
] as const;
const GRAPHQL_RESPONSE = { accept: "application/graphql-response+json" };
const repeat = (count: number, text: (index: number) => string) => Array.from({ length: count }, (_, i) => text(i)).join(" ");

function nestedCustomers(levels: number): string {
  let selection = "name";
  for (let level = 0; level < levels; level++) selection = `serviceProvider { customer { ${selection} } }`;
  return `{ customers { nodes { ${selection} } } }`;
}

const post = (app: TestApp, body: unknown, headers: Record<string, string> = {}, token = app.world.tokens.staff) =>
  app.http("POST", "/graphql", { token, raw: JSON.stringify(body), headers: { ...JSON_HEADERS, ...GRAPHQL_RESPONSE, ...headers } });

describe("operation limits", () => {
  const OVER_LIMIT: Array<[string, string, string, RegExp]> = [
    ["depth", nestedCustomers(5), "QUERY_TOO_DEEP", /^Query depth limit of 10 exceeded, found 13\.$/],
    ["aliases", `{ ${repeat(101, (i) => `a${i}: me { username }`)} }`, "TOO_MANY_ALIASES", /^Aliases limit of 100 exceeded, found 101\.$/],
    ["tokens", `{ me { ${repeat(2000, () => "username")} } }`, "QUERY_TOO_LARGE", /^Token limit of 2000 exceeded\.$/],
    ["cost", "{ customers(first: 3000) { nodes { name } } }", "QUERY_TOO_COMPLEX", /^Query Cost limit of 5000 exceeded, found 21750\.$/],
    ["directives", `{ me { ${repeat(51, () => "username @skip(if: false)")} } }`, "TOO_MANY_DIRECTIVES", /^Directives limit of 50 exceeded, found 51\.$/],
  ];
  for (const [limit, query, code, message] of OVER_LIMIT) {
    it(`rejects an operation over the ${limit} limit with 400, ${code} and the limit in the message`, async () => {
      const res = await post(t, { query });
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].message).toMatch(message);
      expect(res.body.errors[0].extensions.code).toBe(code);
    });
  }

  it("answers an application/json client with 200 and the same error, as GraphQL over HTTP asks", async () => {
    const res = await post(t, { query: nestedCustomers(5) }, { accept: "application/json" });
    expect(res.status).toBe(200);
    expect(res.body.errors[0].extensions.code).toBe("QUERY_TOO_DEEP");
  });

  it("lets an ordinary query through: nesting, aliases and a page within the limits", async () => {
    const res = await post(t, { query: `{ ${repeat(5, (i) => `a${i}: me { username }`)} customers(first: 100) { nodes { serviceProvider { customer { name } } } } }` });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a0).toEqual({ username: "staff" });
  });

  it("limits come from the configuration", async () => {
    const yoga = createGraphqlServer({ ...t.app.deps, config: { ...t.app.deps.config, graphqlMaxDepth: 3 } });
    const enveloped = yoga.getEnveloped({});
    const [error] = enveloped.validate(enveloped.schema, enveloped.parse(nestedCustomers(1)));
    expect(error.message).toBe("Query depth limit of 3 exceeded, found 5.");
  });

  it("counts a fragment's fields as if written in place, so fragments add no depth", () => {
    const yoga = createGraphqlServer({ ...t.app.deps, config: { ...t.app.deps.config, graphqlMaxDepth: 5 } });
    const enveloped = yoga.getEnveloped({});
    const query = "{ customers { nodes { ...Provider } } } fragment Provider on Customer { serviceProvider { ...Owner } } fragment Owner on ServiceProvider { customer { name } }";
    expect(enveloped.validate(enveloped.schema, enveloped.parse(query))).toEqual([]);
  });

  it("every REST route document fits the default limits, measured on the internal schema it runs on", () => {
    const enveloped = createGraphqlServer(t.app.deps).getEnveloped({});
    for (const route of compileRoutes(REST_API, internalSchema)) {
      const document = enveloped.parse(print(route.parsed));
      expect(enveloped.validate(internalSchema, document), `${route.method} ${route.path}`).toEqual([]);
    }
  });

  it("docs/graphql.md gives each limit's default, and what the largest REST documents need, as they are", () => {
    const docs = readFileSync(new URL("../../docs/graphql.md", import.meta.url), "utf8");
    const defaults = loadGraphqlSettings({});
    for (const [variable, setting] of LIMITS) {
      expect([variable, new RegExp(`^\\| \`${variable}\` \\| \`(\\d+)\``, "m").exec(docs)?.[1]]).toEqual([variable, String(defaults[setting])]);
    }
    const needs = /the largest need depth (\d+), (\d+) aliases .*?, (\d+) tokens and a cost of (\d+)\./s.exec(docs);
    expect(needs).not.toBeNull();
    const [depth, aliases, tokens, cost] = needs!.slice(1).map(Number);
    const documents = compileRoutes(REST_API, internalSchema).map((route) => print(route.parsed));
    const fitsAll = (setting: (typeof LIMITS)[number][1], limit: number) => {
      const enveloped = createGraphqlServer({ ...t.app.deps, config: { ...t.app.deps.config, [setting]: limit } }).getEnveloped({});
      return documents.every((document) => {
        try {
          return enveloped.validate(internalSchema, enveloped.parse(document)).length === 0;
        } catch {
          return false;
        }
      });
    };
    for (const [setting, need] of [["graphqlMaxDepth", depth], ["graphqlMaxAliases", aliases], ["graphqlMaxTokens", tokens], ["graphqlMaxCost", cost]] as const) {
      expect([setting, fitsAll(setting, need), fitsAll(setting, need - 1)]).toEqual([setting, true, false]);
    }
  });

  it("answers a malformed JSON body with 400, not 500", async () => {
    const res = await t.http("POST", "/graphql", { raw: "{", headers: { ...JSON_HEADERS, ...GRAPHQL_RESPONSE } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/JSON/);
  });

  it("rejects a batch (an array body) with 400", async () => {
    const res = await post(t, [{ query: "{ __typename }" }, { query: "{ __typename }" }]);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/batch/i);
  });
});

describe("CSRF prevention", () => {
  const SIMPLE = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"];
  for (const contentType of SIMPLE) {
    it(`rejects a ${contentType.split(";")[0]} POST without a CSRF header with 403`, async () => {
      const res = await t.http("POST", "/graphql", { raw: JSON.stringify({ query: "{ __typename }" }), headers: { "content-type": contentType } });
      expect(res.status).toBe(403);
      expect(res.body.errors[0].extensions.code).toBe("CSRF_HEADER_REQUIRED");
    });
  }

  it("rejects a GET without a CSRF header, and runs it with one", async () => {
    const path = `/graphql?query=${encodeURIComponent("{ __typename }")}`;
    const bare = await t.http("GET", path, { headers: { accept: "application/json" } });
    expect(bare.status).toBe(403);
    for (const header of ["x-graphql-yoga-csrf", "graphql-require-preflight"]) {
      const marked = await t.http("GET", path, { headers: { accept: "application/json", [header]: "1" } });
      expect(marked.body).toEqual({ data: { __typename: "Query" } });
    }
  });

  it("lets a native EventSource subscribe (a GET asking for text/event-stream), but not run a query or mutation that way", async () => {
    const subscribe = `/graphql?query=${encodeURIComponent("subscription { publicMaintenanceChanged { kind } }")}`;
    const controller = new AbortController();
    const stream = await fetch(`${t.baseUrl}${subscribe}`, { headers: { accept: "text/event-stream" }, signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    controller.abort();
    const mutation = `/graphql?query=${encodeURIComponent("mutation { logout { __typename } }")}`;
    const refused = await fetch(`${t.baseUrl}${mutation}`, { headers: { accept: "text/event-stream" } });
    expect(refused.status).toBe(405);
    await refused.body?.cancel();
  });

  it("runs a form POST that carries the header, and any JSON POST", async () => {
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const marked = await t.http("POST", "/graphql", { raw: `query=${encodeURIComponent("{ __typename }")}`, headers: { ...form, "x-graphql-yoga-csrf": "yes" } });
    expect(marked.body).toEqual({ data: { __typename: "Query" } });
    const body = JSON.stringify({ query: "{ __typename }" });
    const json = await t.http("POST", "/graphql", { raw: body, headers: { "content-type": "application/json; charset=utf-8" } });
    expect(json.body).toEqual({ data: { __typename: "Query" } });
  });

  it("still serves GraphiQL to a browser's plain GET", async () => {
    const res = await t.http("GET", "/graphql", { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  });
});

describe("production exposure (NODE_ENV=production)", () => {
  it("has introspection, GraphiQL and suggestions off and error details hidden by default", () => {
    expect(loadGraphqlSettings({ NODE_ENV: "production" })).toMatchObject({
      graphqlIntrospection: false,
      graphiql: false,
      graphqlFieldSuggestions: false,
      graphqlErrorDetails: false,
    });
    expect(loadGraphqlSettings({ NODE_ENV: "production", GRAPHQL_INTROSPECTION: "true", GRAPHIQL: "1" })).toMatchObject({ graphqlIntrospection: true, graphiql: true });
    expect(() => loadGraphqlSettings({ GRAPHQL_MAX_DEPTH: "ten" })).toThrow(/GRAPHQL_MAX_DEPTH must be a positive integer/);
  });

  it("refuses introspection with a validation error, while __typename still works", async () => {
    for (const query of ["{ __schema { types { name } } }", '{ __type(name: "User") { name } }']) {
      const res = await post(production, { query });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toMatch(/introspection has been disabled/);
      expect(res.body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    }
    expect((await post(production, { query: "{ __typename }" })).body).toEqual({ data: { __typename: "Query" } });
    expect((await post(t, { query: "{ __schema { queryType { name } } }" })).body.data.__schema.queryType.name).toBe("Query");
  });

  it("serves no GraphiQL page", async () => {
    const res = await production.http("GET", "/graphql", { headers: { accept: "text/html" } });
    expect(res.headers.get("content-type") ?? "").not.toMatch(/text\/html/);
  });

  it("drops 'Did you mean' from validation and variable errors", async () => {
    const field = await post(production, { query: "{ me { usernam } }" });
    expect(field.body.errors[0].message).toBe('Cannot query field "usernam" on type "User".');
    const variable = await post(production, {
      query: "query($state: [OfferingUserState!]) { offeringUsers(filter: { state: $state }) { totalCount } }",
      variables: { state: ["OKK"] },
    });
    expect(variable.body.errors[0].message).toMatch(/does not exist in "OfferingUserState" enum\.$/);
    expect(JSON.stringify(variable.body)).not.toMatch(/Did you mean/);
    expect((await post(t, { query: "{ me { usernam } }" })).body.errors[0].message).toMatch(/Did you mean "username"\?/);
  });

  it("masks an unexpected failure: no message, stack or originalError; details only when configured", async () => {
    const failingDb = new Proxy({}, { get: () => () => Promise.reject(new Error("connection to 10.0.0.5 refused")) });
    const request = () =>
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { ...JSON_HEADERS, authorization: `Token ${"a".repeat(40)}` },
        body: JSON.stringify({ query: "{ me { username } }" }),
      });
    const respond = (graphqlErrorDetails: boolean) =>
      createGraphqlServer({ ...production.app.deps, db: failingDb as never, config: { ...production.app.deps.config, graphqlErrorDetails } }).fetch(request());

    const masked = await (await respond(false)).text();
    expect(JSON.parse(masked).errors).toEqual([{ message: "Unexpected error.", extensions: { code: "INTERNAL_SERVER_ERROR" } }]);
    expect(masked).not.toMatch(/10\.0\.0\.5|stack|originalError/);
    expect(await (await respond(true)).text()).toMatch(/originalError.*10\.0\.0\.5/);
  });
});
