import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.ts";
import { browserSuiteTitle, CHROMIUM, hasChromium, saveScreenshot, watchedPage } from "../support/browser.ts";
import { seedMaintenance } from "../support/maintenance-fixtures.ts";
import { makeResource, orderIn } from "../support/order-fixtures.ts";

/** The console's panels, search, sort, stuck marker, timeline, provider actions, small screens and accessibility. */

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const HOUR = 3_600_000;

let t: TestApp;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
const pageErrors: string[] = [];

const ownOrigin = (url: URL) => url.origin === t.baseUrl;
const rest = (method: string, path: string, body?: unknown) => t.socketHttp(method, path, { token: t.world.tokens.providerOwner, body });
const text = async (selector: string) => (await page.locator(selector).innerText()).replace(/\s+/g, " ").trim();
const rowUuids = () => page.locator("#users-rows tr").evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.uuid));

async function signIn() {
  await page.goto(`${t.baseUrl}/dashboard/`);
  await page.locator("#token-form input[name=token]").fill(t.world.tokens.providerOwner);
  await page.locator("#token-form button").click();
  await expect.poll(() => page.locator("#live-status").getAttribute("data-status")).toBe("live");
}

/** axe-core's serious and critical violations on the page as it is, as "rule: target" lines. */
async function seriousViolations(): Promise<string[]> {
  await page.evaluate(AXE);
  const results = await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ["violations"] }));
  return results.violations
    .filter((violation: { impact: string }) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation: { id: string; nodes: Array<{ target: string[] }> }) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(" ")}`));
}

describe.skipIf(!hasChromium)(browserSuiteTitle("The operations console's panels and actions in headless Chromium", "test/browser/console.test.ts"), () => {
  let stuck: { id: string; uuid: string };
  let fresh: { uuid: string };
  let findable: { uuid: string; userId: string };
  let order: Awaited<ReturnType<typeof orderIn>>;

  beforeAll(async () => {
    t = await startTestApp();
    const db = t.app.deps.db;
    stuck = await t.world.offeringUser("CREATING");
    // In Creating for 3 hours: past the default threshold (OFFERING_USER_STUCK_CREATING_MINUTES=60).
    await db.$executeRaw`UPDATE offering_users SET state_changed_at = ${new Date(Date.now() - 3 * HOUR)} WHERE id = ${stuck.id}::uuid`;
    fresh = await t.world.offeringUser("CREATING");
    findable = await t.world.offeringUser("OK");
    await db.user.update({ where: { id: findable.userId }, data: { email: "grace.hopper@example.org" } });
    for (let i = 0; i < 3; i++) await t.world.offeringUser("CREATION_REQUESTED");
    const allocation = await makeResource(db, t.world, "OK", { name: "ocean-allocation" });
    const component = await db.offeringComponent.findFirstOrThrow({ where: { offeringId: t.world.offering.id, type: "cpu" } });
    const now = new Date();
    const period = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    await db.componentUsage.create({ data: { resourceId: allocation.id, componentId: component.id, usage: 12.5, date: now, billingPeriod: period } });
    await db.offeringTermsOfService.create({ data: { offeringId: t.world.offering.id, version: "1", isActive: true, activatedAt: now } });
    const agent = await db.agentIdentity.create({ data: { offeringId: t.world.offering.id, name: "slurm-agent", version: "0.9.1" } });
    await db.agentService.create({ data: { identityId: agent.id, name: "order_processing", mode: "order_process" } });
    order = await orderIn(db, t.world, "PENDING_PROVIDER");
    await seedMaintenance(t, "SCHEDULED");

    browser = await chromium.launch({ executablePath: CHROMIUM });
    const options = { viewport: { width: 1400, height: 1000 }, timezoneId: "Europe/Berlin", locale: "en-GB", foreign, pageErrors };
    page = await watchedPage(browser, ownOrigin, options);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("shows time in state on every row, with the exact time and zone on hover, and marks the stuck record", async () => {
    await signIn();
    await expect.poll(() => page.locator("#users-rows tr").count()).toBe(6);
    const stuckRow = `#users-rows tr[data-uuid="${stuck.uuid}"]`;
    expect(await page.locator(stuckRow).getAttribute("data-stuck")).toBe("true");
    expect(await text(`${stuckRow} td[data-label=State] .stuck`)).toBe("stuck");
    expect(await text(`${stuckRow} td[data-label="In state"]`)).toMatch(/^3 h( \d+ min)?$/);
    expect(await page.locator(`#users-rows tr[data-uuid="${fresh.uuid}"] .stuck`).count()).toBe(0);
    const inState = page.locator(`${stuckRow} td[data-label="In state"] time`);
    expect(Date.now() - Date.parse((await inState.getAttribute("datetime"))!)).toBeGreaterThan(3 * HOUR - 60_000);
    expect(await inState.getAttribute("title")).toMatch(/\d{4}.*\d{2}:\d{2}:\d{2}.*(CET|CEST|GMT\+\d)/);
    for (const cells of await page.locator("#users-rows tr td[data-label='In state']").allInnerTexts()) expect(cells.trim()).not.toBe("");
  });

  it("shows each row's project and organisation", async () => {
    const row = `#users-rows tr[data-uuid="${findable.uuid}"]`;
    expect([await text(`${row} td[data-label=Project]`), await text(`${row} td[data-label=Organisation]`)]).toEqual(["Project", "Consumer Org"]);
  });

  it("searches by email and keeps the search in the address across a reload", async () => {
    await page.locator("#filter-query").fill("grace.hopper@");
    await expect.poll(rowUuids).toEqual([findable.uuid]);
    expect(new URL(page.url()).searchParams.get("q")).toBe("grace.hopper@");
    await page.reload();
    await expect.poll(rowUuids).toEqual([findable.uuid]);
    expect(await page.locator("#filter-query").inputValue()).toBe("grace.hopper@");
    await page.locator("#filter-query").fill("");
    await expect.poll(() => page.locator("#users-rows tr").count()).toBe(6);
  });

  it("sorts by time in state both ways and filters to the stuck records", async () => {
    const inStateHeader = page.locator('#users-head th:has(button[data-order="STATE_CHANGED"])');
    // First the longest in their state (entered earliest), then the other way.
    await page.locator('#users-head button[data-order="STATE_CHANGED"]').click();
    await expect.poll(() => inStateHeader.getAttribute("aria-sort")).toBe("descending");
    await expect.poll(async () => (await rowUuids())[0]).toBe(stuck.uuid);
    expect(new URL(page.url()).searchParams.get("sort")).toBe("STATE_CHANGED_ASC");
    await page.locator('#users-head button[data-order="STATE_CHANGED"]').click();
    await expect.poll(() => inStateHeader.getAttribute("aria-sort")).toBe("ascending");
    await expect.poll(async () => (await rowUuids()).at(-1)).toBe(stuck.uuid);
    expect(new URL(page.url()).searchParams.get("sort")).toBe("STATE_CHANGED_DESC");

    await page.locator("#filter-stuck").check();
    await expect.poll(rowUuids).toEqual([stuck.uuid]);
    await page.locator("#filter-stuck").uncheck();
  });

  it("shows data in every panel: orders, maintenance, resources, usage, consent and site agents", async () => {
    await expect.poll(() => page.locator(`#orders-list li[data-uuid="${order.uuid}"]`).count()).toBe(1);
    expect(await page.locator("#maintenance-list li[data-uuid]").count()).toBe(1);
    await expect.poll(() => page.locator("#resources-list li[data-uuid]").count()).toBe(2);
    expect(await text('#usage-rows tr[data-type="cpu"]')).toMatch(/^HPC CPU 12\.5 .*1$/);
    expect(await text("#terms-list")).toMatch(/^HPC version 1, active since/);
    expect(await text("#consent-count")).toBe("6");
    expect(await page.locator(`#consent-list li[data-uuid="${stuck.uuid}"]`).count()).toBe(1);
    expect(await text("#agents-list > li")).toMatch(/slurm-agent HPC · 0\.9\.1 · last contact .+ago/);
    expect(await text("#agents-list .services li")).toMatch(/^active order_processing \(order_process\)/);
    await saveScreenshot(page, "console-panels", { fullPage: true });
  });

  it("shows an order's approval over REST in the timeline, with its relative time and exact time on hover", async () => {
    expect((await rest("POST", `/api/marketplace-orders/${order.uuid}/approve_by_provider/`, {})).status).toBe(200);
    const entry = page.locator(`#timeline-list li[data-kind="order"][data-uuid="${order.uuid}"]`).first();
    await entry.waitFor();
    expect(await entry.locator(".kind").innerText()).toBe("ORDER");
    expect(await entry.locator("time").innerText()).toMatch(/now|sec/);
    expect(await entry.locator("time").getAttribute("title")).toMatch(/(CET|CEST|GMT\+\d)/);
    await expect.poll(() => page.locator(`#orders-list li[data-uuid="${order.uuid}"]`).count()).toBe(0);
  });

  it("schedules a maintenance announcement linked to an offering, seen over REST and on the public endpoint", async () => {
    const form = page.locator("#maintenance-form");
    await expect.poll(() => form.locator("select[name=offerings] option").allInnerTexts()).toEqual(["HPC"]);
    await form.locator("input[name=announcementName]").fill("Scratch filesystem upgrade");
    await form.locator("input[name=message]").fill("Jobs keep running; scratch is read-only.");
    await form.locator("input[name=scheduledStart]").fill("2031-03-01T08:00");
    await form.locator("input[name=scheduledEnd]").fill("2031-03-01T12:00");
    await form.locator("select[name=offerings]").selectOption(["HPC"].map((label) => ({ label })));
    await form.locator("select[name=impactLevel]").selectOption("PARTIAL_OUTAGE");
    await form.locator("button[type=submit]").click();
    // Three mutations in a row: create, link the offering, schedule.
    await expect.poll(() => text("#maintenance-form .outcome"), { timeout: 10_000 }).toBe("Scheduled “Scratch filesystem upgrade” for 1 offering.");

    const all: Array<{ uuid: string; name: string; state: string; scheduled_start: string; affected_offerings: Array<{ offering_name: string }> }> = (
      await rest("GET", "/api/maintenance-announcements/")
    ).body;
    const listed = all.filter((each) => each.name === "Scratch filesystem upgrade");
    expect(listed.map((each) => each.state)).toEqual(["Scheduled"]);
    expect(listed[0].affected_offerings.map((link) => link.offering_name)).toEqual(["HPC"]);
    expect(listed[0].scheduled_start).toBe(new Date("2031-03-01T08:00:00+01:00").toISOString().replace(".000Z", "Z"));
    const published = await t.socketHttp("GET", "/api/public-maintenance-announcements/");
    expect(published.status).toBe(200);
    expect(published.body.map((each: { uuid: string }) => each.uuid)).toContain(listed[0].uuid);
    await expect.poll(() => page.locator(`#maintenance-list li[data-uuid="${listed[0].uuid}"]`).count()).toBe(1);
    await expect.poll(() => page.locator(`#timeline-list li[data-kind="maintenance"][data-uuid="${listed[0].uuid}"]`).count()).toBeGreaterThan(0);
  });

  it("shows a refused announcement's typed failure", async () => {
    const form = page.locator("#maintenance-form");
    await form.locator("input[name=announcementName]").fill("Backwards");
    await form.locator("input[name=scheduledStart]").fill("2031-03-02T12:00");
    await form.locator("input[name=scheduledEnd]").fill("2031-03-02T08:00");
    await form.locator("select[name=offerings]").selectOption([{ label: "HPC" }]);
    await form.locator("button[type=submit]").click();
    await expect.poll(() => text("#maintenance-form .outcome"), { timeout: 10_000 }).toMatch(/^ValidationError: /);
    expect(await page.locator("#maintenance-form .outcome.failed").count()).toBe(1);
  });

  it("publishes a new terms-of-service version: the old one steps down and everyone is asked again", async () => {
    const form = page.locator("#terms-form");
    await form.locator("select[name=offering]").selectOption({ label: "HPC" });
    await form.locator("input[name=version]").fill("2");
    await form.locator("textarea[name=text]").fill("Be kind to the scheduler.");
    await form.locator("input[name=requiresReconsent]").check();
    await form.locator("button[type=submit]").click();
    await expect.poll(() => text("#terms-form .outcome"), { timeout: 10_000 }).toBe("Version 2 is now the active terms.");
    const terms = (await rest("GET", `/api/marketplace-offering-terms-of-service/?offering_uuid=${t.world.offering.uuid}`)).body;
    expect(terms.map((each: { version: string; is_active: boolean }) => [each.version, each.is_active]).sort()).toEqual([["1", false], ["2", true]]);
    await expect.poll(() => text("#terms-list")).toMatch(/^HPC version 2, active since/);
    // The README's picture of the console (docs/dashboard.png is this file).
    await page.locator("#users-rows tr").first().click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, "console-overview");
  });

  it("works at 420 px wide with no sideways scroll", async () => {
    await page.setViewportSize({ width: 420, height: 900 });
    await page.locator("#users-rows tr").first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    expect(await page.locator(`#users-rows tr[data-uuid="${stuck.uuid}"] .stuck`).isVisible()).toBe(true);
    await saveScreenshot(page, "console-420px", { fullPage: true });
    await page.setViewportSize({ width: 1400, height: 1000 });
  });

  it("is usable from the keyboard: a sort header, a row's user and its actions are reached and run with keys", async () => {
    const sort = page.locator('#users-head button[data-order="MODIFIED"]');
    await sort.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator('#users-head th:has(button[data-order="MODIFIED"])').getAttribute("aria-sort")).toBe("ascending");
    const user = page.locator(`#users-rows tr[data-uuid="${fresh.uuid}"] td[data-label=User] button`);
    await user.focus();
    await page.keyboard.press("Enter");
    await page.locator('#detail button[data-mutation="setOkOfferingUser"]').waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("#detail, #users-panel") !== null)).toBe(true);
  });

  it("has no serious or critical accessibility violation (axe-core), signed in and signed out", async () => {
    expect(await seriousViolations()).toEqual([]);
    await page.locator("#sign-out").click();
    await page.locator("#token-form").waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it("shows an explicit empty state in every panel to a viewer with nothing to watch", async () => {
    const other = await watchedPage(browser, ownOrigin, { foreign, pageErrors });
    await other.goto(`${t.baseUrl}/dashboard/`);
    await other.locator("#token-form input[name=token]").fill(t.world.tokens.unrelated);
    await other.locator("#token-form button").click();
    const hint = (selector: string) => other.locator(selector).innerText();
    await expect.poll(() => hint("#page-position")).toBe("No offering users yet.");
    await expect.poll(() => hint("#orders-list")).toBe("No order is waiting for the provider.");
    expect(await hint("#maintenance-list")).toBe("No maintenance scheduled or in progress.");
    await expect.poll(() => hint("#resources-list")).toBe("No resource of your offerings yet.");
    expect(await hint("#usage-rows")).toBe("No usage reported for this period yet.");
    // Active terms are public; whose consent is missing is not.
    expect(await hint("#terms-list")).toMatch(/^HPC version 2, active since/);
    expect(await hint("#consent-list")).toBe("Every offering user you may see has consented to the active version.");
    expect(await hint("#agents-list")).toBe("No site agent has registered.");
    expect(await hint("#offerings")).toBe("None with offering users");
    await other.context().close();
  });

  it("asked nothing of any host but the gateway, and broke no rule of its Content-Security-Policy", () => {
    expect(foreign).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
