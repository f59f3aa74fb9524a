import { randomBytes } from "node:crypto";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/platform/database/connect.ts";
import { browserSuiteTitle, CHROMIUM, hasChromium, watchedPage } from "../support/browser.ts";
import { orderIn } from "../support/order-fixtures.ts";
import { type GatewayProcess, killGateways, startGateway } from "../support/server-process.ts";
import { type GatewayStorage, postgresStorage } from "../support/storage.ts";
import { buildWorld, type World } from "../support/world.ts";

/** The console open on gateway A while changes are made through gateway B: one PostgreSQL database, one Redis. */

const postgresUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

let storage: GatewayStorage | undefined;
let database: Database | undefined;
let browser: Browser | undefined;
let page: Page;
let world: World;
let a: GatewayProcess;
let b: GatewayProcess;
const foreign: string[] = [];
const pageErrors: string[] = [];

const throughB = (method: string, path: string) =>
  fetch(`${b.baseUrl}${path}`, { method, headers: { authorization: `Token ${world.tokens.providerOwner}`, "content-type": "application/json" }, body: "{}" });
const text = async (selector: string) => (await page.locator(selector).innerText()).replace(/\s+/g, " ").trim();

describe.skipIf(!hasChromium || !postgresUrl || !redisUrl)(
  browserSuiteTitle("The console on one instance hears changes made through another (PostgreSQL + Redis)", "test/browser/console-scale-out.test.ts"),
  () => {
    let requested: { uuid: string };
    let order: Awaited<ReturnType<typeof orderIn>>;

    beforeAll(async () => {
      storage = await postgresStorage(postgresUrl!);
      database = await storage.open();
      world = await buildWorld(database.prisma);
      requested = await world.offeringUser("CREATION_REQUESTED");
      await world.offeringUser("CREATION_REQUESTED");
      order = await orderIn(database.prisma, world, "PENDING_PROVIDER");
      const env = { ...storage.env, REDIS_URL: redisUrl!, PUBSUB_PREFIX: `console-${randomBytes(4).toString("hex")}` };
      [a, b] = await Promise.all([startGateway(env), startGateway(env)]);

      browser = await chromium.launch({ executablePath: CHROMIUM });
      const allowed = (url: URL) => url.origin === a.baseUrl || url.href === `${a.baseUrl.replace("http", "ws")}/graphql`;
      page = await watchedPage(browser, allowed, { viewport: { width: 1400, height: 1000 }, foreign, pageErrors, timeoutMs: 15_000 });
    });
    afterAll(async () => {
      await browser?.close();
      killGateways();
      await database?.close();
      await storage?.dispose();
    });

    it("signs in on A and goes live", async () => {
      await page.goto(`${a.baseUrl}/dashboard/`);
      await page.locator("#token-form input[name=token]").fill(world.tokens.providerOwner);
      await page.locator("#token-form button").click();
      await expect.poll(() => page.locator("#live-status").getAttribute("data-status"), { timeout: 15_000 }).toBe("live");
      await expect.poll(() => text('#counts button[data-state="CREATION_REQUESTED"] strong'), { timeout: 15_000 }).toBe("2");
    });

    it("shows a transition made through B in A's timeline and counts", async () => {
      expect((await throughB("POST", `/api/marketplace-offering-users/${requested.uuid}/begin_creating/`)).status).toBe(200);
      const entry = `#timeline-list li[data-kind="offering-user"][data-uuid="${requested.uuid}"]`;
      await expect.poll(() => page.locator(entry).count(), { timeout: 15_000 }).toBe(1);
      expect(await text(`${entry} .transition`)).toBe("creation requested → creating");
      await expect.poll(() => text('#counts button[data-state="CREATING"] strong'), { timeout: 15_000 }).toBe("1");
    });

    it("shows an order approved through B in A's timeline and takes it off the waiting list", async () => {
      await expect.poll(() => page.locator(`#orders-list li[data-uuid="${order.uuid}"]`).count(), { timeout: 15_000 }).toBe(1);
      expect((await throughB("POST", `/api/marketplace-orders/${order.uuid}/approve_by_provider/`)).status).toBe(200);
      await expect.poll(() => page.locator(`#timeline-list li[data-kind="order"][data-uuid="${order.uuid}"]`).count(), { timeout: 15_000 }).toBeGreaterThan(0);
      await expect.poll(() => page.locator(`#orders-list li[data-uuid="${order.uuid}"]`).count(), { timeout: 15_000 }).toBe(0);
    });

    it("asked nothing of any host but gateway A, and broke no rule of its Content-Security-Policy", () => {
      expect(foreign).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  },
);
