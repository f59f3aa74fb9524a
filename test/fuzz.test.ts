import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileRoutes, type CompiledRoute } from "../rest-adapter/execute.ts";
import { REST_API } from "../src/modules.ts";
import { internalSchema, schema } from "../src/schema.ts";
import { startTestApp, type TestApp } from "./support/app.ts";
import { globalId } from "./support/global-ids.ts";
import { type FuzzCase, type GraphqlDocument, graphqlCase, graphqlDocuments, type OpenApiDocument, restCase } from "./support/fuzz-cases.ts";
import { createBody } from "./support/maintenance-fixtures.ts";
import { makeResource } from "./support/order-fixtures.ts";
import { changedTables, databaseFingerprint, RealIds, seedTargets } from "./support/fuzz-targets.ts";
import { nested, Random, serialize } from "./support/fuzz-values.ts";

/**
 * Generated hostile input against every REST route and every GraphQL document the routes run: no 5xx, nothing internal
 * in any answer, Waldur's error shapes, and a database that rejected requests left exactly as it was.
 * FUZZ_ITERATIONS (requests, default 2000; CI runs 5000 on PostgreSQL) bounds the run; FUZZ_SEED replays one.
 */

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 2000);
const BATCH_SIZE = 8;
const GRAPHQL_SHARE = 0.25;
const REQUEST_TIMEOUT_MS = 30_000;
const REVOKES_TOKENS = new Set(["/api-auth/logout/", "/api/users/:uuid/refresh_token/"]);
const REPLAY = `replay with FUZZ_SEED=${SEED} FUZZ_ITERATIONS=${ITERATIONS}`;

/** Things no answer may contain: stack frames, ORM and driver messages, paths, JavaScript errors, SQL errors. */
const LEAKS = [
  /\bat .+\.[cm]?[jt]s:\d+/, /prisma/i, /Invalid `/, /node_modules/, /SQLSTATE/, /\/work\/|file:\/\//, /driverAdapter/i, /\bP20\d\d\b/,
  /(Type|Range|Reference)Error\b/, /Cannot read propert/, /is not a function/, /Maximum call stack/, /ECONN/,
  /syntax error at or near/, /violates .* constraint/, /duplicate key value/, /relation ".+" does not exist/, /invalid input syntax/,
  /Unexpected error\./, /INTERNAL_SERVER_ERROR/,
];
/** REST answers speak Waldur: a GraphQL variable error reaching a REST client means a reader let bad input through. */
const REST_ONLY_LEAKS = [/Variable "\$/, /GraphQL/];

let t: TestApp;
let doc: OpenApiDocument;
let routes: CompiledRoute[];
let documents: GraphqlDocument[];
beforeAll(async () => {
  t = await startTestApp();
  for (let round = 0; round < 2; round++) await seedTargets(t);
  doc = (await t.http("GET", "/api/schema/")).body;
  // Revoking the tokens the generated requests carry would turn the rest of the run into 401s (src/tokens/tokens.test.ts covers them).
  routes = compileRoutes({ ...REST_API, routes: REST_API.routes.filter((route) => !REVOKES_TOKENS.has(route.path)) }, internalSchema);
  documents = graphqlDocuments(routes, schema);
});
afterAll(() => t?.close());

interface Answer {
  status: number;
  text: string;
}

async function send(fuzz: FuzzCase): Promise<Answer> {
  try {
    const response = await fetch(`${t.baseUrl}${fuzz.path}`, {
      method: fuzz.method,
      headers: fuzz.headers,
      body: fuzz.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { status: 0, text: `no answer: ${(error as Error).message} ${String((error as Error).cause ?? "")}` };
  }
}

const isStringList = (value: unknown) => Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string");

/** `{"detail": "…"}` or `{"field": ["…", …], …}`. */
function isWaldurError(body: unknown): boolean {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return false;
  const entries = Object.entries(body);
  if (entries.length === 1 && entries[0][0] === "detail") return typeof entries[0][1] === "string";
  return entries.length > 0 && entries.every(([, value]) => isStringList(value));
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Waldur answers a resource's `details/` without a backend object with 404 and no body. */
const isBareDetailsMiss = (fuzz: FuzzCase, answer: Answer) =>
  answer.status === 404 && answer.text === "" && /\/details\/(\?|$)/.test(fuzz.path);

/** What is wrong with an answer; empty when it is fine. */
function problemsOf(fuzz: FuzzCase, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status === 0 || answer.status >= 500) problems.push(`status ${answer.status}`);
  const leaks = [...LEAKS, ...(fuzz.kind === "rest" ? REST_ONLY_LEAKS : [])].filter((pattern) => pattern.test(answer.text));
  if (leaks.length) problems.push(`leaks ${leaks.join(" ")}`);
  if (fuzz.kind === "rest" && answer.status >= 400 && answer.status < 500 && fuzz.method !== "HEAD" && !isWaldurError(parse(answer.text)) && !isBareDetailsMiss(fuzz, answer)) {
    problems.push("not a Waldur error body");
  }
  if (fuzz.kind === "graphql" && answer.status > 0 && answer.status < 500) {
    const body = parse(answer.text) as { data?: unknown; errors?: Array<{ message?: unknown; extensions?: { code?: unknown } }> } | undefined;
    if (!body || (!("data" in body) && !body.errors?.length)) problems.push("not a GraphQL response");
    else if (body.errors?.some((error) => typeof error.message !== "string")) problems.push("error without a message");
  }
  return problems;
}

/** True when the request cannot have written: a read, or rejected (4xx; for GraphQL, no data at all). */
function rejectedOrRead(fuzz: FuzzCase, answer: Answer): boolean {
  if (!fuzz.writes) return true;
  if (fuzz.kind === "rest") return answer.status >= 400 && answer.status < 500;
  const body = parse(answer.text) as { data?: Record<string, unknown> | null } | undefined;
  return !body?.data || Object.values(body.data).every((value) => value === null);
}

/** PostgreSQL connections checked out of the pool though no request is running (PGlite has none to count). */
async function connectionsStillInUse(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const { total, idle } = t.app.database.poolUsage();
    if (idle === undefined || total === idle) return 0;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { total, idle = 0 } = t.app.database.poolUsage();
  return total - idle;
}

/** Long bodies keep their start and their end (a GraphQL request's variables come after the document). */
const shorten = (text: string, keep: number) => (text.length <= keep * 2 ? text : `${text.slice(0, keep)} … ${text.slice(-keep)}`);

const describeCase = (fuzz: FuzzCase, answer: Answer) =>
  `${fuzz.method} ${shorten(fuzz.path, 300)} [${fuzz.headers.authorization?.slice(0, 12) ?? "anonymous"}] ${shorten(fuzz.body ?? "", 600)} → ${answer.status} ${shorten(answer.text, 300)}`;

const REFRESH_IDS_EVERY = 4;

/** Sends one batch of generated requests at once and reports what is wrong with the answers and the database. */
async function runBatch(batch: number, ids: RealIds, statuses: Record<string, number>) {
  const db = t.app.deps.db;
  const random = new Random(SEED ^ Math.imul(batch + 1, 0x9e3779b1));
  const cases = Array.from({ length: BATCH_SIZE }, () =>
    random.chance(GRAPHQL_SHARE) ? graphqlCase(random, random.pick(documents), ids, t.world) : restCase(random, random.pick(routes), doc, ids, t.world),
  );
  const before = await databaseFingerprint(db);
  const answers = await Promise.all(cases.map(send));
  const described = cases.map((fuzz, i) => describeCase(fuzz, answers[i]));
  const problems = cases.flatMap((fuzz, i) => {
    const key = `${fuzz.kind} ${String(answers[i].status).replace(/\d\d$/, "xx")}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
    return problemsOf(fuzz, answers[i]).map((problem) => `batch ${batch}: ${problem}: ${described[i]}`);
  });
  const leaked = await connectionsStillInUse();
  if (leaked) problems.push(`batch ${batch}: ${leaked} database connection(s) still in use after every answer:\n  ${described.join("\n  ")}`);
  const comparable = cases.every((fuzz, i) => rejectedOrRead(fuzz, answers[i]));
  if (comparable) {
    const changed = changedTables(before, await databaseFingerprint(db));
    const writes = described.filter((_, i) => cases[i].writes);
    if (changed.length) problems.push(`batch ${batch}: rejected requests changed ${changed.join(", ")}:\n  ${writes.join("\n  ")}`);
  }
  return { problems, comparable };
}

describe("fuzzing", () => {
  it(`REST routes and GraphQL documents answer generated input cleanly (${REPLAY})`, { timeout: 20 * 60_000 }, async () => {
    const ids = new RealIds();
    const problems: string[] = [];
    const statuses: Record<string, number> = {};
    let batches = 0;
    let compared = 0;
    for (; batches * BATCH_SIZE < ITERATIONS; batches++) {
      if (batches % REFRESH_IDS_EVERY === 0 || ids.exhausted) await ids.refresh(t.app.deps.db);
      if (ids.exhausted) {
        await seedTargets(t);
        await ids.refresh(t.app.deps.db);
      }
      const result = await runBatch(batches, ids, statuses);
      problems.push(...result.problems);
      if (result.comparable) compared++;
    }
    console.log(`fuzz: ${batches * BATCH_SIZE} requests (${JSON.stringify(statuses)}), ${compared} of ${batches} batches all rejected or reads (database compared); ${REPLAY}`);
    expect(problems.slice(0, 20), `${problems.length} problems; ${REPLAY}`).toEqual([]);
    // The database check means little unless a fair share of batches was all rejected.
    expect(compared / batches).toBeGreaterThan(0.2);
  });
});

/** What the fuzzer found, pinned down. */
describe("found by fuzzing", () => {
  const staff = () => t.world.tokens.staff;

  it("a REST body nested deeper than 512 levels is a 400, not a stack overflow (500)", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const path = `/api/marketplace-provider-resources/${resource.uuid}/set_backend_metadata/`;
    for (const depth of [600, 100_000]) {
      const res = await t.http("POST", path, { token: staff(), raw: serialize({ backend_metadata: nested(depth, depth % 2 === 0) }) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: "JSON parse error - nesting deeper than 512 levels." });
    }
    expect((await t.http("POST", path, { token: staff(), raw: serialize({ backend_metadata: { a: nested(100, true) } }) })).status).toBe(200);
  });

  it("a GraphQL JSON variable nested deeper than 512 levels is a validation error", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const query = "mutation($id: ID!, $m: JSON!) { setResourceBackendMetadata(input: { id: $id, backendMetadata: $m }) { ... on ResourceBackendResult { status } } }";
    const res = await t.http("POST", "/graphql", {
      token: staff(),
      raw: serialize({ query, variables: { id: globalId("Resource", resource.uuid), m: nested(50_000, false) } }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors[0].message).toMatch(/JSON nests deeper than 512 levels\./);
  });

  it("a timestamp beyond year 9999 is refused: stored, it made every later read of its row fail", async () => {
    const created = await t.http("POST", "/api/marketplace-site-agent-identities/", { token: staff(), body: { offering: t.world.offering.uuid, name: "far-future" } });
    const path = `/api/marketplace-site-agent-identities/${created.body.uuid}/`;
    for (const value of ["+275760-09-13T00:00:00Z", "+010000-01-01T00:00:00Z", "0000-01-01T00:00:00Z"]) {
      const res = await t.http("PATCH", path, { token: staff(), body: { last_restarted: value } });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(["last_restarted"]);
      const overGraphql = await t.gql(
        "mutation($id: ID!, $at: DateTime) { updateAgentIdentity(input: { id: $id, lastRestarted: $at }) { ... on AgentIdentity { uuid } } }",
        { id: globalId("AgentIdentity", created.body.uuid), at: value },
        staff(),
      );
      expect(overGraphql.errors?.[0].message).toMatch(/Datetime has wrong format/);
    }
    expect((await t.http("GET", path, { token: staff() })).status).toBe(200);
    expect((await t.http("GET", "/api/marketplace-provider-resources/?created=%2B275760-09-13", { token: staff() })).body).toEqual({ created: ["Enter a valid date/time."] });
  });

  it("a usage filter's year beyond 9999 over GraphQL is a field error, as over REST (it was no date: a 500)", async () => {
    const query = "query($f: ComponentUsageFilter) { componentUsages(filter: $f) { totalCount } }";
    for (const filter of [{ billingPeriodYear: 1_000_000 }, { billingPeriodYear: 2030, billingPeriodMonth: 13 }]) {
      const result = await t.gql(query, { f: filter }, staff());
      expect(result.errors?.[0].extensions).toMatchObject({ code: "VALIDATION" });
    }
    expect((await t.http("GET", "/api/marketplace-component-usages/?billing_period_year=1000000", { token: staff() })).body).toEqual({
      billing_period_year: ["Enter a whole number."],
    });
  });

  it("a maintenance ending in the last hour of 9999 keeps its announcement window storable", async () => {
    const body = createBody(t, { scheduled_start: "9999-12-31T22:00:00Z", scheduled_end: "9999-12-31T23:30:00Z" });
    const created = await t.http("POST", "/api/maintenance-announcements/", { token: staff(), body });
    expect(created.status).toBe(201);
    expect((await t.http("POST", `/api/maintenance-announcements/${created.body.uuid}/schedule/`, { token: staff() })).status).toBe(200);
    const announcements = await t.http("GET", "/api/admin-announcements/?page_size=300", { token: staff() });
    expect(announcements.status).toBe(200);
    expect(announcements.body.map((a: { active_to: string }) => a.active_to)).toContain("9999-12-31T23:59:59.999000Z");
  });
});
