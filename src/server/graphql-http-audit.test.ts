import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { type AuditResult, serverAudits } from "graphql-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { loadGraphqlSettings } from "../platform/settings/graphql-settings.ts";

/** Set to a file path to write the SHOULD/MAY results as a markdown table (docs/graphql.md's audit section). */
const REPORT_PATH = process.env.GRAPHQL_HTTP_AUDIT_REPORT;

const PROFILES = {
  defaults: () => startTestApp(),
  production: () => startTestApp(loadGraphqlSettings({ NODE_ENV: "production" })),
};
type Profile = keyof typeof PROFILES;

const apps = {} as Record<Profile, TestApp>;
const results = {} as Record<Profile, Map<string, AuditResult>>;

async function audit(app: TestApp): Promise<Map<string, AuditResult>> {
  const outcomes = new Map<string, AuditResult>();
  for (const { id, fn } of serverAudits({ url: `${app.baseUrl}/graphql` })) outcomes.set(id, await fn());
  return outcomes;
}

beforeAll(async () => {
  for (const profile of Object.keys(PROFILES) as Profile[]) {
    apps[profile] = await PROFILES[profile]();
    results[profile] = await audit(apps[profile]);
  }
}, 120_000);
afterAll(() => Promise.all(Object.values(apps).map((app) => app.close())));

const AUDITS = serverAudits({ url: "http://audit.invalid/graphql" });
const reasonOf = (result: AuditResult) => (result.status === "ok" ? "" : result.reason);

describe("GraphQL over HTTP audit (graphql-http serverAudits) against /graphql, unauthenticated", () => {
  for (const { id, name } of AUDITS.filter((a) => a.name.startsWith("MUST"))) {
    it(`${id} ${name}`, () => {
      const result = results.defaults.get(id)!;
      expect(result.status, reasonOf(result)).toBe("ok");
    });
  }

  it("reports the SHOULD and MAY audits", () => {
    const report = renderReport();
    expect(report).toContain("| Audit |");
    if (!REPORT_PATH) return;
    mkdirSync(dirname(REPORT_PATH), { recursive: true });
    writeFileSync(REPORT_PATH, report);
    console.log(report);
  });
});

const cell = (result: AuditResult | undefined) => {
  if (!result) return "—";
  if (result.status === "ok") return "ok";
  return `${result.status === "notice" ? "notice" : result.status}: ${result.reason.replace(/\|/g, "\\|").replace(/\s+/g, " ")}`;
};

function renderReport(): string {
  const musts = AUDITS.filter((a) => a.name.startsWith("MUST"));
  const mustLine = (profile: Profile) =>
    `${musts.filter((a) => results[profile].get(a.id)?.status === "ok").length} of ${musts.length} MUST audits pass`;
  const rows = AUDITS.filter((a) => !a.name.startsWith("MUST")).map(
    (a) => `| ${a.id} | ${a.name.replace(/\|/g, "\\|")} | ${cell(results.defaults.get(a.id))} | ${cell(results.production.get(a.id))} |`,
  );
  const mustFailures = musts
    .filter((a) => results.production.get(a.id)?.status !== "ok")
    .map((a) => `| ${a.id} | ${a.name} | ok | ${cell(results.production.get(a.id))} |`);
  return [
    `Defaults: ${mustLine("defaults")}. NODE_ENV=production: ${mustLine("production")}.`,
    "",
    "| Audit | Requirement | Defaults | NODE_ENV=production |",
    "|---|---|---|---|",
    ...mustFailures,
    ...rows,
    "",
  ].join("\n");
}
