import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../test/support/database.ts";
import { hashPassword } from "../auth/secrets.ts";
import { loadConfig } from "../platform/config.ts";
import { applyMigrations } from "../platform/migrations.ts";
import { MIGRATIONS_DIR } from "../app.ts";
import { demoPasswordAccounts, DEMO_USERNAMES, productionRefusal, seedDemo } from "./demo.ts";

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

describe("the production start-up check", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    database = await freshDatabase();
    await applyMigrations(database.sql, MIGRATIONS_DIR);
  });
  afterAll(() => database.drop());

  it("passes an empty database, and anything outside production", async () => {
    expect(await productionRefusal(database.prisma, true)).toBeNull();
    await seedDemo(database.prisma);
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
