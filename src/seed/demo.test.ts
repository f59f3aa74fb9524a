import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REST_API } from "../modules.ts";
import { freshDatabase } from "../../test/support/database.ts";
import { hashPassword } from "../auth/secrets.ts";
import { loadConfig } from "../platform/settings/config.ts";
import { applyMigrations } from "../platform/database/migrations.ts";
import { type App, createApp, MIGRATIONS_DIR } from "../app.ts";
import { demoPasswordAccounts, DEMO_USERNAMES, issueToken, productionRefusal, seedDemo } from "./demo.ts";

const POSTGRES = "postgresql://gateway@db:5432/gateway";

describe("SEED_DEMO defaults", () => {
  const MODES: Array<[string, NodeJS.ProcessEnv, boolean]> = [
    ["embedded database, development", {}, true],
    ["embedded database, NODE_ENV=test", { NODE_ENV: "test" }, true],
    ["embedded database, production", { NODE_ENV: "production" }, false],
    ["PostgreSQL", { DATABASE_URL: POSTGRES }, false],
    ["PostgreSQL, production", { DATABASE_URL: POSTGRES, NODE_ENV: "production" }, false],
    ["PostgreSQL, SEED_DEMO=true", { DATABASE_URL: POSTGRES, SEED_DEMO: "true" }, true],
    ["embedded database, SEED_DEMO=false", { SEED_DEMO: "false" }, false],
    ["production, SEED_DEMO=false", { NODE_ENV: "production", SEED_DEMO: "false" }, false],
  ];
  for (const [mode, env, seeded] of MODES) {
    it(`${mode}: ${seeded ? "seeds" : "does not seed"}`, () => expect(loadConfig(env).seedDemo).toBe(seeded));
  }

  it("refuses SEED_DEMO=true with NODE_ENV=production", () => {
    expect(() => loadConfig({ NODE_ENV: "production", SEED_DEMO: "true" })).toThrow(/SEED_DEMO=true cannot be used with NODE_ENV=production/);
  });
});

type TestDatabase = Awaited<ReturnType<typeof freshDatabase>>;

/** The app over a fresh database, as main.ts builds it but silent and without seeding. */
async function appOver(database: TestDatabase): Promise<App> {
  await applyMigrations(database.sql, MIGRATIONS_DIR);
  return createApp({ database, config: { seedDemo: false, logLevel: "silent", pubsubPrefix: `seed-${process.pid}-${Date.now()}` } });
}

describe("the production start-up check", () => {
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    database = await freshDatabase();
    app = await appOver(database);
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it("passes an empty database, and anything outside production", async () => {
    expect(await productionRefusal(database.prisma, true)).toBeNull();
    await seedDemo(app);
    expect(await productionRefusal(database.prisma, false)).toBeNull();
  });

  it("refuses production while a demo account has the demo password, in one line naming them", async () => {
    expect(await demoPasswordAccounts(database.prisma)).toEqual([...DEMO_USERNAMES].sort());
    const refusal = await productionRefusal(database.prisma, true);
    expect(refusal).toMatch(/^Refusing to start: NODE_ENV=production and demo accounts still have the demo password \(alice, bob, .*\); deactivate them or change their passwords\.$/);
    expect(refusal).not.toContain("\n");
  });

  it("passes once every demo account is deactivated or has another password", async () => {
    const db = database.prisma;
    await db.user.updateMany({ where: { username: { in: DEMO_USERNAMES.filter((u) => u !== "staff") } }, data: { isActive: false } });
    expect(await demoPasswordAccounts(db)).toEqual(["staff"]);
    await db.user.update({ where: { username: "staff" }, data: { passwordHash: await hashPassword("a long unique passphrase") } });
    expect(await productionRefusal(db, true)).toBeNull();
  });
});

/** Lists that are empty by design: service and course accounts are not modelled; event subscriptions need a broker. */
const EMPTY_BY_DESIGN = new Set([
  "/api/event-subscriptions/",
  "/api/event-subscription-queues/",
  "/api/marketplace-provider-offerings/:uuid/list_project_service_accounts/",
  "/api/marketplace-provider-offerings/:uuid/list_course_accounts/",
]);

describe("the demo data", () => {
  let database: TestDatabase;
  let app: App;
  let staffToken: string;
  beforeAll(async () => {
    database = await freshDatabase();
    app = await appOver(database);
    await seedDemo(app);
    staffToken = (await issueToken(database.prisma, "staff")) ?? "";
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  /** The demo's own record for a path parameter: its offering or its service provider. */
  async function pathOf(route: string) {
    if (!route.includes(":uuid")) return route;
    const db = database.prisma;
    const owner = route.startsWith("/api/marketplace-provider-offerings/") ? await db.offering.findFirstOrThrow() : await db.serviceProvider.findFirstOrThrow();
    return route.replace(":uuid", owner.id);
  }

  const lists = REST_API.routes.filter((route) => route.kind === "list" && route.method === "GET");
  it.each(lists.map((route) => [route.path]))("GET %s answers staff with demo data (or is empty by design)", async (route) => {
    const response = await app.fetch(new Request(`http://localhost${await pathOf(route)}`, { headers: { authorization: `Token ${staffToken}` } }));
    expect(response.status, await response.clone().text()).toBe(200);
    const count = Number(response.headers.get("x-result-count"));
    if (EMPTY_BY_DESIGN.has(route)) expect(count).toBe(0);
    else expect(count).toBeGreaterThanOrEqual(1);
  });

  it("walks the state machines: orders, the resource, maintenance", async () => {
    const db = database.prisma;
    const orders = await db.order.findMany({ select: { state: true, resource: { select: { name: true, state: true } } }, orderBy: { created: "asc" } });
    expect(orders.map((o) => [o.resource?.name, o.state, o.resource?.state])).toEqual([
      ["Ocean Models production", "DONE", "OK"],
      ["Ocean Models archive", "PENDING_PROVIDER", "CREATING"],
      ["Ocean Models GPU trial", "ERRED", "ERRED"],
      ["Ocean Models sandbox", "PENDING_CONSUMER", "CREATING"],
    ]);
    const production = await db.resource.findFirstOrThrow({ where: { name: "Ocean Models production" } });
    expect(production).toMatchObject({ backendId: "ocean_models", limits: { cpu: 50_000, ram: 200_000 }, currentUsages: { cpu: 12840.5, ram: 51200 } });
    const announcements = await db.maintenanceAnnouncement.findMany({ select: { state: true, _count: { select: { affectedOfferings: true } } } });
    expect(announcements.map((a) => [a.state, a._count.affectedOfferings]).sort()).toEqual([["DRAFT", 1], ["IN_PROGRESS", 1], ["SCHEDULED", 1]]);
    const events = await db.event.groupBy({ by: ["eventType"], _count: true });
    expect(events.map((e) => e.eventType)).toEqual(
      expect.arrayContaining(["marketplace_order_created", "terms_of_service_consent_granted", "maintenance_announcement_started", "ssh_key_creation_succeeded"]),
    );
  });

  it("leaves no seeding token behind", async () => {
    expect(await database.prisma.authToken.count()).toBe(1);
  });
});
