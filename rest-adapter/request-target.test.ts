import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test/support/app.ts";
import { MAX_REQUEST_TARGET_BYTES } from "../src/server/request-target.ts";
import { LINK_HEADER_BUDGET_BYTES, linkHeader } from "./waldur.ts";

/**
 * Long query strings: every Link of a list repeats the query, so four of them could outgrow the 16 KiB of response
 * headers undici (Node's fetch) reads. Request-targets beyond 8 KiB get 414 (as nginx in front of Waldur answers);
 * the Link header keeps within its budget. Real requests through Node's global fetch.
 */

let t: TestApp;
let staff: string;
beforeAll(async () => {
  t = await startTestApp();
  staff = t.world.tokens.staff;
});
afterAll(() => t.close());

const URI_TOO_LONG = { detail: "Request URI too long." };

function parseLinks(header: string | null): Array<[string, string]> {
  return (header ?? "").split(", ").map((part) => {
    const match = /^<([^>]*)>; rel="(\w+)"$/.exec(part);
    expect(match, part.slice(0, 80)).not.toBeNull();
    return [match![2], match![1]];
  });
}

/** `/api/users/?…` padded with an ignored parameter so that the request-target is exactly `bytes` long. */
function usersPath(bytes: number, query = "page=2&page_size=1") {
  const prefix = `/api/users/?${query}&pad=`;
  return prefix + "x".repeat(bytes - prefix.length);
}

describe("request-target length", () => {
  it("a list with a ~7 KiB query string: 200 and a parseable Link header within its budget (next kept first)", async () => {
    const path = usersPath(7 * 1024);
    const res = await t.http("GET", path, { token: staff });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const header = res.headers.get("link")!;
    expect(Buffer.byteLength(header)).toBeLessThanOrEqual(LINK_HEADER_BUDGET_BYTES);
    const links = parseLinks(header);
    expect(links.map(([rel]) => rel)).toEqual(["next"]);
    const next = new URL(links[0][1]);
    expect(next.searchParams.get("page")).toBe("3");
    expect(next.searchParams.get("pad")).toBe("x".repeat(7 * 1024 - "/api/users/?page=2&page_size=1&pad=".length));
    const following = await t.http("GET", next.pathname + next.search, { token: staff });
    expect(following.status).toBe(200);
  });

  it("a ~3.5 KiB query string: first, prev and next fit and keep DRF's order; last is left off", async () => {
    const res = await t.http("GET", usersPath(3500), { token: staff });
    expect(res.status).toBe(200);
    const links = parseLinks(res.headers.get("link"));
    expect(links.map(([rel]) => rel)).toEqual(["first", "prev", "next"]);
    expect(links.map(([, url]) => new URL(url).searchParams.get("page"))).toEqual([null, null, "3"]);
  });

  it("a short query string keeps all four links", async () => {
    const res = await t.http("GET", "/api/users/?page=2&page_size=1", { token: staff });
    expect(parseLinks(res.headers.get("link")).map(([rel]) => rel)).toEqual(["first", "prev", "next", "last"]);
  });

  it(`exactly ${MAX_REQUEST_TARGET_BYTES} bytes is served; one byte more is 414`, async () => {
    expect((await t.http("GET", usersPath(MAX_REQUEST_TARGET_BYTES), { token: staff })).status).toBe(200);
    const res = await t.http("GET", usersPath(MAX_REQUEST_TARGET_BYTES + 1), { token: staff });
    expect(res.status).toBe(414);
    expect(res.body).toEqual(URI_TOO_LONG);
  });

  it("a 9 KiB query string: 414 with Waldur's body, before authentication and routing", async () => {
    for (const [path, token] of [
      [usersPath(9 * 1024), staff],
      [usersPath(9 * 1024), undefined],
      [`/api/marketplace-offering-users/?state=Requested&${"uuid=0123456789abcdef0123456789abcdef&".repeat(230)}`, staff],
      [`/api/no-such-collection/?pad=${"x".repeat(9 * 1024)}`, staff],
    ] as const) {
      const res = await t.http("GET", path, { token });
      expect(res.status, path.slice(0, 60)).toBe(414);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.body).toEqual(URI_TOO_LONG);
    }
    const post = await t.http("POST", usersPath(9 * 1024), { token: staff, body: { username: "never-created" } });
    expect(post.status).toBe(414);
    expect(await t.app.deps.db.user.count({ where: { username: "never-created" } })).toBe(0);
  });

  it("a long path counts too", async () => {
    const res = await t.http("GET", `/api/users/${"a".repeat(9 * 1024)}/`, { token: staff });
    expect(res.status).toBe(414);
    expect(res.body).toEqual(URI_TOO_LONG);
  });

  it("GET /graphql with a 9 KiB query: the same 414; a short one still runs", async () => {
    const query = `{ me { username } ${"__typename ".repeat(900)}}`;
    const long = await t.http("GET", `/graphql?query=${encodeURIComponent(query)}`, { token: staff, headers: { "x-graphql-yoga-csrf": "1" } });
    expect(long.status).toBe(414);
    expect(long.body).toEqual(URI_TOO_LONG);
    const short = await t.http("GET", `/graphql?query=${encodeURIComponent("{ me { username } }")}`, { token: staff, headers: { "x-graphql-yoga-csrf": "1", accept: "application/json" } });
    expect(short.status).toBe(200);
    expect(short.body).toEqual({ data: { me: { username: "staff" } } });
  });
});

describe("linkHeader budget", () => {
  const url = new URL(`http://testserver/api/users/?page=3&pad=${"y".repeat(100)}`);
  const page = { page: 3, pageSize: 1 };
  const full = linkHeader(url, page, 5);
  const rels = (header: string) => (header ? header.split(", ").map((part) => /rel="(\w+)"/.exec(part)![1]) : []);
  const one = full.split(", ")[0].length;

  it("within the budget, all links in DRF's order", () => {
    expect(rels(full)).toEqual(["first", "prev", "next", "last"]);
    expect(linkHeader(url, page, 5, full.length)).toBe(full);
  });

  it("links join in the order next, prev, first, last while they fit, and keep DRF's order", () => {
    const budget = (n: number) => n * (one + 10) + (n - 1) * 2;
    expect(rels(linkHeader(url, page, 5, budget(1)))).toEqual(["next"]);
    expect(rels(linkHeader(url, page, 5, budget(2)))).toEqual(["prev", "next"]);
    expect(rels(linkHeader(url, page, 5, budget(3)))).toEqual(["first", "prev", "next"]);
    expect(rels(linkHeader(url, page, 5, budget(4)))).toEqual(["first", "prev", "next", "last"]);
    expect(rels(linkHeader(url, { page: 5, pageSize: 1 }, 5, budget(1)))).toEqual(["prev"]);
    expect(rels(linkHeader(url, { page: 1, pageSize: 1 }, 5, budget(2)))).toEqual(["first", "next"]);
  });

  it("nothing fits: an empty header (the list leaves Link out)", () => {
    expect(linkHeader(url, page, 5, 10)).toBe("");
  });
});
