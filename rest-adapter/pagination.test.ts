import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test/support/app.ts";
import { linkHeader, pageRequest } from "./waldur.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe("pages beyond what GraphQL's Int can reach", () => {
  it("answers ?page=300000000 with Waldur's 404 Invalid page., not an internal GraphQL message", async () => {
    for (const query of ["page=300000000", "page=7158279&page_size=300", "page=1e300", `page=${2 ** 53}`]) {
      const res = await t.http("GET", `/api/users/?${query}`, { token: t.world.tokens.staff });
      expect(res.status, query).toBe(404);
      expect(res.body).toEqual({ detail: "Invalid page." });
    }
  });

  it("still reads the largest page that fits", () => {
    expect(pageRequest(new URLSearchParams("page=214748365&page_size=10"))).toEqual({ page: 214748365, pageSize: 10 });
    expect(() => pageRequest(new URLSearchParams("page=214748366&page_size=10"))).toThrow("Invalid page.");
  });
});

describe("page numbers as Django reads them (Python's int(), DRF's `last`)", () => {
  it("refuses what int() refuses with 404 Invalid page.: 0x2, 2.0, 1e0, 0b1, 0, -1, 1__0, a word", async () => {
    for (const page of ["0x2", "2.0", "1e0", "0b1", "0", "-1", "1__0", "two", "Infinity", " "]) {
      const res = await t.http("GET", `/api/users/?page_size=1&page=${encodeURIComponent(page)}`, { token: t.world.tokens.staff });
      expect([page, res.status, res.body]).toEqual([page, 404, { detail: "Invalid page." }]);
    }
  });

  it("reads what int() reads: a sign, leading zeros, underscores between digits, surrounding spaces", () => {
    for (const [page, expected] of [["+2", 2], ["002", 2], ["1_0", 10], [" 3 ", 3], ["", 1]] as const) {
      expect([page, pageRequest(new URLSearchParams({ page })).page]).toEqual([page, expected]);
    }
  });

  it("page_size falls back to the default for what is not a positive integer, as DRF's _positive_int", () => {
    for (const [size, expected] of [["0x10", 10], ["2.0", 10], ["0", 10], ["-5", 10], ["+7", 7], ["1_5", 15], ["100000", 300]] as const) {
      expect([size, pageRequest(new URLSearchParams({ page_size: size })).pageSize]).toEqual([size, expected]);
    }
  });

  it("?page=last serves the last page, with the Link header of that page", async () => {
    const total = await t.app.deps.db.user.count();
    const res = await t.http("GET", "/api/users/?page_size=2&page=last&o=username", { token: t.world.tokens.staff });
    const last = Math.ceil(total / 2);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(total - (last - 1) * 2);
    const numbered = await t.http("GET", `/api/users/?page_size=2&page=${last}&o=username`, { token: t.world.tokens.staff });
    expect(res.body).toEqual(numbered.body);
    expect(res.headers.get("link")).toBe(numbered.headers.get("link"));
    expect(res.headers.get("link")).toContain('rel="prev"');
  });
});

describe("Link headers", () => {
  it("never repeat a token given as ?x-auth-token=", async () => {
    const token = t.world.tokens.staff;
    const res = await t.http("GET", `/api/users/?page_size=1&page=2&x-auth-token=${token}`);
    expect(res.status).toBe(200);
    const link = res.headers.get("link")!;
    expect(link).toMatch(/rel="first".*rel="prev".*rel="next"/);
    expect(link).not.toContain(token);
    expect(link).not.toContain("x-auth-token");
    expect(link).toContain(`<${t.baseUrl}/api/users/?page=3&page_size=1>; rel="next"`);
  });

  it("drop only that parameter", () => {
    const url = new URL("https://gw.example.org/api/users/?x-auth-token=abc&email=a%40b.org&page_size=1");
    expect(linkHeader(url, { page: 1, pageSize: 1 }, 2)).toBe(
      '<https://gw.example.org/api/users/?email=a%40b.org&page_size=1>; rel="first", <https://gw.example.org/api/users/?email=a%40b.org&page=2&page_size=1>; rel="next", <https://gw.example.org/api/users/?email=a%40b.org&page=2&page_size=1>; rel="last"',
    );
  });
});
