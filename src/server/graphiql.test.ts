import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

const PAGE = { headers: { accept: "text/html" } };

let on: TestApp;
let off: TestApp;
let page: { html: string; csp: string; assets: string[]; config: any };
beforeAll(async () => {
  [on, off] = await Promise.all([startTestApp({ graphiql: true }), startTestApp({ graphiql: false })]);
  const res = await on.http("GET", "/graphql", PAGE);
  expect(res.status).toBe(200);
  const html = res.text;
  page = {
    html,
    csp: res.headers.get("content-security-policy") ?? "",
    assets: [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]),
    config: JSON.parse(/<script type="application\/json" id="graphiql-config">(.*?)<\/script>/s.exec(html)?.[1] ?? "null"),
  };
});
afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

describe("GraphiQL served by the gateway", () => {
  it("the page loads only files under /graphiql/, each name carrying a content hash, and runs no inline script", () => {
    expect(page.assets.length).toBeGreaterThanOrEqual(5);
    for (const url of page.assets) expect(url).toMatch(/^\/graphiql\/[a-z.-]+\.[0-9a-f]{16}\.(js|css|ico)$/);
    expect(page.html).not.toMatch(/https?:\/\/|unpkg/);
    const scripts = [...page.html.matchAll(/<script([^>]*)>/g)].map((match) => match[1]);
    for (const attributes of scripts) expect(attributes).toMatch(/ src="|type="application\/json"/);
  });

  it("its policy allows the gateway's own scripts and workers and nothing inline or foreign", () => {
    expect(page.csp).toMatch(/(^|; )default-src 'self';/);
    expect(page.csp).toMatch(/; script-src 'self';/);
    expect(page.csp).toMatch(/; worker-src 'self';/);
    expect(page.csp).toMatch(/; connect-src 'self';/);
    expect(page.csp).toContain("frame-ancestors 'none'");
    expect(page.csp).not.toMatch(/blob:|https?:|'unsafe-eval'/);
  });

  it("prefills a query that runs without a token, where the token goes, a commented subscription, and no headers", () => {
    const { options, workers } = page.config;
    expect(options.defaultQuery).toMatch(/^\{\n {2}version\n {2}publicMaintenanceAnnouncements/m);
    expect(options.defaultQuery).toMatch(/^# {3}\{ me \{ username isStaff \} \}$/m);
    expect(options.defaultQuery).toMatch(/^# subscription \{/m);
    expect(options.defaultQuery).toContain(`{"Authorization": "Token <your token>"}`);
    expect(JSON.parse(options.headers)).toEqual({});
    expect(options.shouldPersistHeaders).toBe(false);
    expect(Object.keys(workers).sort()).toEqual(["editorWorkerService", "graphql", "json"]);
    for (const url of Object.values<string>(workers)) expect(url).toMatch(/^\/graphiql\/.+\.worker\.[0-9a-f]{16}\.js$/);
  });

  it("serves every asset with its type, a year's immutable caching, and gzip to clients that take it", async () => {
    const urls = [...page.assets, ...Object.values<string>(page.config.workers)];
    for (const url of urls) {
      const plain = await on.http("GET", url);
      expect(plain.status, url).toBe(200);
      expect(plain.headers.get("content-type"), url).toMatch(url.endsWith(".css") ? /^text\/css/ : url.endsWith(".ico") ? /^image\/x-icon/ : /^text\/javascript/);
      expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(plain.headers.get("vary")).toBe("Accept-Encoding");
      expect(plain.headers.get("content-encoding")).toBeNull();
    }
    const script = page.assets.find((url) => /\/graphiql\.\w+\.js$/.test(url))!;
    const [raw, gzipped] = await Promise.all([
      on.app.fetch(new Request(`${on.baseUrl}${script}`)),
      on.app.fetch(new Request(`${on.baseUrl}${script}`, { headers: { "accept-encoding": "gzip, deflate, br" } })),
    ]);
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    const [rawBytes, gzippedBytes] = [Buffer.from(await raw.arrayBuffer()), Buffer.from(await gzipped.arrayBuffer())];
    expect(gzippedBytes.length).toBeLessThan(rawBytes.length / 2);
    expect(gunzipSync(gzippedBytes).equals(rawBytes)).toBe(true);
  });

  it("the page script sends the Headers tab as graphql-ws connectionParams", async () => {
    const script = page.assets.find((url) => url.includes("/page."))!;
    expect((await on.http("GET", script)).text).toMatch(/connectionParams: headers/);
  });

  it("the page script picks graphql-ws for subscriptions from the query text: the named operation, else the first", () => {
    const source = readFileSync(new URL("./graphiql-page.js", import.meta.url), "utf8");
    const operationType: (query: string, operationName?: string) => string | undefined = runInNewContext(`${source}\ngraphqlOperationType`);
    const cases: Array<[query: string, operationName: string | undefined, type: string | undefined]> = [
      ["{ me { username } }", undefined, "query"],
      ["subscription { offeringUserChanged { state } }", undefined, "subscription"],
      ["# subscription { x }\n{ me { username } }", undefined, "query"],
      ['query Q($s: String = "subscription {") { me { username } }\nsubscription S { eventCreated { id } }', "S", "subscription"],
      ['query Q($s: String = "}") { me { username } }\nsubscription S { eventCreated { id } }', "Q", "query"],
      ['fragment F on User { username }\nsubscription($f: In = {a: """ { """}) @x { eventCreated { id } }', undefined, "subscription"],
      ["mutation M { obtainToken(input: { username: \"a\\\"}\", password: \"b\" }) { ... on AuthToken { token } } }", "M", "mutation"],
      ["{ me { username } }", "Missing", undefined],
      ["", undefined, undefined],
    ];
    for (const [query, operationName, type] of cases) expect(operationType(query, operationName), query).toBe(type);
  });

  it("an unknown or stale asset name is 404", async () => {
    const stale = page.assets[0].replace(/\.[0-9a-f]{16}\./, ".0000000000000000.");
    for (const path of [stale, "/graphiql/graphiql.js", "/graphiql/"]) expect((await on.http("GET", path)).status, path).toBe(404);
  });
});

describe("with GRAPHIQL off", () => {
  it("GET /graphql from a browser gets no page, and every asset is 404", async () => {
    const res = await off.http("GET", "/graphql", PAGE);
    expect(res.headers.get("content-type") ?? "").not.toMatch(/text\/html/);
    for (const url of page.assets) expect((await off.http("GET", url)).status, url).toBe(404);
  });
});
