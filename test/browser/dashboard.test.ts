import { type Browser, chromium, type Page, type WebSocketRoute } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.ts";
import { blockForeignRequests, browserSuiteTitle, CHROMIUM, collectPageErrors, hasChromium, reportCspViolations, saveScreenshot } from "../support/browser.ts";
import { seedMaintenance } from "../support/maintenance-fixtures.ts";
import { orderIn } from "../support/order-fixtures.ts";

interface Frame {
  type: string;
  id?: string;
  payload?: any;
}

/** One graphql-ws connection of the page, relayed to the gateway by the test, with every frame either way. */
interface Socket {
  route: WebSocketRoute;
  server: WebSocketRoute;
  sent: Frame[];
  received: Frame[];
}

let t: TestApp;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
const pageErrors: string[] = [];
const sockets: Socket[] = [];

const rest = (method: string, path: string, body?: unknown) => t.socketHttp(method, path, { token: t.world.tokens.providerOwner, body });
const offeringUserState = async (uuid: string) => (await rest("GET", `/api/marketplace-offering-users/${uuid}/`)).body;
const screenshot = (name: string) => saveScreenshot(page, `dashboard-${name}`, { fullPage: true });
const text = async (selector: string) => (await page.locator(selector).innerText()).replace(/\s+/g, " ").trim();
const count = (state: string) => text(`#counts button[data-state="${state}"] strong`);
const changesSubscribed = (socket: Socket) => socket.sent.filter((frame) => frame.type === "subscribe" && frame.payload.query.includes("offeringUserChanged"));
const eventsSubscribed = (socket: Socket) => socket.sent.filter((frame) => frame.type === "subscribe" && frame.payload.query.includes("eventCreated"));
const eventCreatedIds = (socket: Socket) =>
  socket.received.flatMap((frame) => (frame.type === "next" && frame.payload.data?.eventCreated ? [frame.payload.data.eventCreated.eventId] : []));
const eventIdsDelivered = (socket: Socket) =>
  socket.received.flatMap((frame) => (frame.type === "next" && frame.payload.data?.offeringUserChanged ? [frame.payload.data.offeringUserChanged.event.eventId] : []));

describe.skipIf(!hasChromium)(browserSuiteTitle("The operations dashboard in headless Chromium", "test/browser/dashboard.test.ts"), () => {
  let creating: Awaited<ReturnType<TestApp["world"]["offeringUser"]>>;
  let toLink: Awaited<ReturnType<TestApp["world"]["offeringUser"]>>;
  let order: Awaited<ReturnType<typeof orderIn>>;
  let maintenance: Awaited<ReturnType<typeof seedMaintenance>>;

  beforeAll(async () => {
    t = await startTestApp();
    creating = await t.world.offeringUser("CREATION_REQUESTED");
    toLink = await t.world.offeringUser("CREATING");
    await t.world.offeringUser("CREATION_REQUESTED");
    order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
    maintenance = await seedMaintenance(t, "SCHEDULED");

    browser = await chromium.launch({ executablePath: CHROMIUM });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await blockForeignRequests(context, (url) => url.origin === t.baseUrl, foreign);
    await context.routeWebSocket(/./, (route) => {
      if (route.url() !== `ws://127.0.0.1:${t.port}/graphql`) {
        foreign.push(route.url());
        return route.close();
      }
      const server = route.connectToServer();
      const socket: Socket = { route, server, sent: [], received: [] };
      sockets.push(socket);
      route.onMessage((message) => {
        socket.sent.push(JSON.parse(String(message)));
        server.send(message);
      });
      server.onMessage((message) => {
        socket.received.push(JSON.parse(String(message)));
        route.send(message);
      });
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    collectPageErrors(page, pageErrors);
    await reportCspViolations(page);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("refuses a wrong password with obtainToken's typed failure, and a bad token with the server's reason", async () => {
    const response = await page.goto(`${t.baseUrl}/dashboard/`);
    expect(response?.headers()["content-security-policy"]).toMatch(/^default-src 'none'; script-src 'self';/);
    await page.locator("#password-form input[name=username]").fill("providerOwner");
    await page.locator("#password-form input[name=password]").fill("not the password");
    await page.locator("#password-form button").click();
    // Checking a password is deliberately slow, and a loaded machine answers a token later than poll's default second.
    await expect.poll(() => text("#notice"), { timeout: 10_000 }).toBe("Unable to log in with provided credentials.");
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    await page.locator("#token-form input[name=token]").fill("0".repeat(40));
    await page.locator("#token-form button").click();
    await expect.poll(() => text("#notice"), { timeout: 10_000 }).toBe("Invalid token.");
    expect(await page.locator("#board").isHidden()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it("signs in with a pasted token: the viewer, their offerings and the counts per state", async () => {
    await page.locator("#token-form input[name=token]").fill(t.world.tokens.providerOwner);
    await page.locator("#token-form button").click();
    await expect.poll(() => text("#viewer")).toBe("providerOwner");
    await expect.poll(() => text("#offerings")).toBe("HPC");
    await expect.poll(() => count("CREATION_REQUESTED")).toBe("2");
    expect(await count("CREATING")).toBe("1");
    expect(await page.locator("#users-rows tr").count()).toBe(3);
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([t.world.tokens.providerOwner]);
    await expect.poll(() => page.locator("#live-status").getAttribute("data-status")).toBe("live");
    await expect.poll(() => changesSubscribed(sockets[0]).length).toBe(1);
    expect(sockets[0].sent[0]).toEqual({ type: "connection_init", payload: { authorization: `Token ${t.world.tokens.providerOwner}` } });
    await screenshot("signed-in");
  });

  it("shows a transition made over REST in the timeline and the counts within a second", async () => {
    expect((await rest("POST", `/api/marketplace-offering-users/${creating.uuid}/begin_creating/`, {})).status).toBe(200);
    const entry = `#timeline-list li[data-uuid="${creating.uuid}"]`;
    await expect.poll(() => page.locator(entry).count(), { timeout: 1_000 }).toBe(1);
    expect(await text(`${entry} .transition`)).toBe("creation requested → creating");
    await expect.poll(() => count("CREATING"), { timeout: 1_000 }).toBe("2");
    expect(await count("CREATION_REQUESTED")).toBe("1");
  });

  it("runs a permitted action from the user's detail, showing a typed failure first", async () => {
    const member = await rest("GET", `/api/marketplace-offering-users/${toLink.uuid}/`);
    const cell = (label: string) => text(`#users-rows tr[data-uuid="${toLink.uuid}"] td[data-label="${label}"]`);
    expect([await cell("User"), await cell("Name"), await cell("Offering")]).toEqual([member.body.user_username, member.body.user_full_name, "HPC"]);
    await page.locator(`#users-rows tr[data-uuid="${toLink.uuid}"]`).click();
    const action = page.locator('#detail button[data-mutation="setPendingAccountLinkingOfferingUser"]');
    await action.waitFor();
    expect(await text("#detail h3")).toBe(`${member.body.user_username} in HPC`);
    // Only what the viewer may run now: nothing that needs another state.
    expect(await page.locator('#detail button[data-mutation="beginCreatingOfferingUser"]').count()).toBe(0);
    await page.locator("#detail input[name=comment]").fill("Link your account first");
    await page.locator("#detail input[name=commentUrl]").fill("not a url");
    await action.click();
    await expect.poll(() => text("#detail .outcome")).toMatch(/^ValidationError: .+ — (input\.)?commentUrl: Enter a valid URL\.$/);
    expect((await offeringUserState(toLink.uuid)).state).toBe("Creating");

    await page.locator("#detail input[name=commentUrl]").fill("https://link.example.org/");
    await action.click();
    await expect.poll(async () => (await offeringUserState(toLink.uuid)).state).toBe("Pending account linking");
    const stored = await offeringUserState(toLink.uuid);
    expect([stored.service_provider_comment, stored.service_provider_comment_url]).toEqual(["Link your account first", "https://link.example.org/"]);
    await expect.poll(() => text("#detail .outcome")).toBe("Now pending account linking.");
    await expect.poll(() => page.locator(`#timeline-list li[data-uuid="${toLink.uuid}"]`).count()).toBe(1);
    await expect.poll(() => count("PENDING_ACCOUNT_LINKING")).toBe("1");
    await screenshot("actions");
  });

  it("approves an order waiting for the provider and starts a scheduled maintenance", async () => {
    const approve = page.locator(`#orders-list li[data-uuid="${order.uuid}"] button[data-mutation="approveOrderByProvider"]`);
    await approve.waitFor();
    expect(await page.locator(`#orders-list li[data-uuid="${order.uuid}"] button[data-mutation="rejectOrderByProvider"]`).count()).toBe(1);
    await approve.click();
    await expect.poll(async () => (await rest("GET", `/api/marketplace-orders/${order.uuid}/`)).body.state).not.toBe("pending-provider");
    expect((await rest("GET", `/api/marketplace-orders/${order.uuid}/`)).body.state).toBe("executing");
    await expect.poll(() => page.locator(`#orders-list li[data-uuid="${order.uuid}"]`).count()).toBe(0);
    expect(await text("#orders-count")).toBe("0");

    await page.locator(`#maintenance-list li[data-uuid="${maintenance.uuid}"] button[data-mutation="startMaintenance"]`).click();
    await expect.poll(async () => (await rest("GET", `/api/maintenance-announcements/${maintenance.uuid}/`)).body.state).toBe("In progress");
    await expect.poll(() => text(`#maintenance-list li[data-uuid="${maintenance.uuid}"] .state`)).toBe("in progress");
    await expect
      .poll(() => page.locator(`#maintenance-list li[data-uuid="${maintenance.uuid}"] button[data-mutation="completeMaintenance"]`).count())
      .toBe(1);
    await screenshot("operations");
  });

  it("resumes after a dropped connection with `after:` the last event id, losing no transition", async () => {
    const first = sockets[0];
    const lastSeen = Math.max(...eventIdsDelivered(first));
    const lastEvent = Math.max(eventsSubscribed(first)[0].payload.variables.after, ...eventCreatedIds(first));
    await first.server.close({ code: 1001, reason: "test drops the connection" });
    await first.route.close({ code: 1001, reason: "test drops the connection" });
    await expect.poll(() => page.locator("#live-status").getAttribute("data-status")).not.toBe("live");
    const missed = await t.world.offeringUser("CREATING");
    expect((await rest("POST", `/api/marketplace-offering-users/${missed.uuid}/set_ok/`, {})).status).toBe(200);

    await expect.poll(() => sockets.length, { timeout: 15_000 }).toBe(2);
    await expect.poll(() => page.locator(`#timeline-list li[data-uuid="${missed.uuid}"]`).count(), { timeout: 10_000 }).toBe(1);
    expect(changesSubscribed(sockets[1]).map((frame) => frame.payload.variables.after)).toEqual([lastSeen]);
    // The rest of the timeline (eventCreated) resumes the same way, after the last event it received.
    expect(eventsSubscribed(sockets[1]).map((frame) => frame.payload.variables.after)).toEqual([lastEvent]);
    expect(eventCreatedIds(sockets[1]).every((eventId) => eventId > lastEvent)).toBe(true);
    expect(eventIdsDelivered(sockets[1]).every((eventId) => eventId > lastSeen)).toBe(true);
    expect(await text(`#timeline-list li[data-uuid="${missed.uuid}"] .transition`)).toBe("creating → ok");
    await expect.poll(() => page.locator("#live-status").getAttribute("data-status")).toBe("live");
    await expect.poll(() => count("OK")).toBe("1");
  });

  it("signs out: the token is forgotten and the sign-in form is back", async () => {
    await page.locator("#sign-out").click();
    await page.locator("#token-form").waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.locator("#board").isHidden()).toBe(true);
  });

  it("asked nothing of any host but the gateway, and broke no rule of its Content-Security-Policy", () => {
    expect(foreign).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
