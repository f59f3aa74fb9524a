import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { loadGraphqlSettings } from "./settings/graphql-settings.ts";
import { boundedMessage, MAX_MESSAGE_CHARS, withoutSuggestionText } from "./error-messages.ts";

let production: TestApp;
const QUERY = "query($f:Int){publicMaintenanceAnnouncements(first:$f){totalCount}}";
const post = (body: unknown) => production.http("POST", "/graphql", { body, headers: { accept: "application/graphql-response+json" } });

beforeAll(async () => {
  production = await startTestApp(loadGraphqlSettings({ NODE_ENV: "production" }));
  await post({ query: QUERY, variables: { f: "warm-up" } });
});
afterAll(() => production.close());

describe("error messages built from client input (NODE_ENV=production)", () => {
  // A backtracking rewrite of this message would hold the event loop for many seconds: the test's timeout catches it.
  it("answers a 60 KB variable of spaces with 400, and /health alongside", async () => {
    const answer = post({ query: QUERY, variables: { f: " ".repeat(60_000) } });
    const health = production.http("GET", "/health");
    const res = await answer;
    expect(res.status).toBe(400);
    expect((await health).status).toBe(200);
    expect(res.body.errors[0].message).toBe(`Variable "$f" got invalid value "${" ".repeat(100)}…"; Int cannot represent non-integer value: "${" ".repeat(100)}…"`);
  }, 5_000);

  it("bounds what parse and validation errors echo (a long string token, a long field name)", async () => {
    const token = await post({ query: `{ me { "${"a".repeat(50_000)}" } }` });
    expect(token.body.errors[0].message).toBe(`Syntax Error: Expected Name, found String "${"a".repeat(100)}…".`);
    const field = await post({ query: `{ me { ${"b".repeat(50_000)} } }` });
    expect(field.body.errors[0].message).toBe(`Cannot query field "${"b".repeat(100)}…" on type "User".`);
  });

  it("bounds what a REST error echoes", async () => {
    const res = await production.http("GET", `/api/events/?o=${"c".repeat(6000)}`, { token: production.world.tokens.staff });
    expect(res.status).toBe(400);
    expect(res.body.o[0].length).toBe(MAX_MESSAGE_CHARS + 1);
    expect(res.body.o[0]).toMatch(/^Select a valid choice\. c+…$/);
  });
});

describe("message rewriting is linear", () => {
  const MEGABYTE = 1 << 20;
  const PATHOLOGICAL = [
    " ".repeat(MEGABYTE),
    "Did you mean ".repeat(MEGABYTE / 13),
    `"${"\\".repeat(MEGABYTE)}`,
    `${" ".repeat(MEGABYTE)}Did you mean x`,
    '"'.repeat(MEGABYTE),
  ];
  // A backtracking rewrite would take on the order of 10¹² steps on these (hours); a linear one takes milliseconds.
  // The test's own timeout catches the first, on any machine, without timing the second.
  for (const [index, input] of PATHOLOGICAL.entries()) {
    it(`rewrites pathological message ${index} of 1 MiB to a bounded message`, { timeout: 10_000 }, () => {
      expect(boundedMessage(withoutSuggestionText(input)).length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS + 1);
    });
  }

  it("strips hints with the blanks before them, and cuts quoted runs and the whole message", () => {
    expect(withoutSuggestionText('Cannot query field "usernam" on type "User". Did you mean "username"?')).toBe('Cannot query field "usernam" on type "User".');
    expect(withoutSuggestionText("Value x. Did you mean a? Value y.  Did you mean b?")).toBe("Value x. Value y.");
    expect(boundedMessage(`got "${"x".repeat(99)}\\n…"`)).toBe(`got "${"x".repeat(99)}…"`);
    expect(boundedMessage(`“${"é".repeat(200)}” is not a valid UUID.`)).toBe(`“${"é".repeat(100)}…” is not a valid UUID.`);
    expect(boundedMessage(`"a${"😀".repeat(60)}"`)).toBe(`"a${"😀".repeat(49)}…"`);
  });
});
