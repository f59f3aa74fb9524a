import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.ts";
import { blockForeignRequests, browserSuiteTitle, CHROMIUM, collectPageErrors, hasChromium, reportCspViolations, saveScreenshot } from "../support/browser.ts";

const SUBSCRIPTION = `subscription {
  offeringUserChanged {
    offeringUserUuid
    previousState
    state
  }
}`;

let t: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Requests the page tried to make to anywhere but the gateway (each was aborted). */
const foreign: string[] = [];
const sockets: string[] = [];
/** graphql-ws messages the page sent, in order. */
const sent: Array<{ type: string; payload?: any }> = [];
const pageErrors: string[] = [];

describe.skipIf(!hasChromium)(browserSuiteTitle("GraphiQL in headless Chromium", "test/browser/graphiql.test.ts"), () => {
  beforeAll(async () => {
    t = await startTestApp({ graphiql: true });
    browser = await chromium.launch({ executablePath: CHROMIUM });
    context = await browser.newContext({ viewport: { width: 1400, height: 800 } });
    // Pasting is how the test fills Monaco's editors: typing would fight its auto-closing brackets and quotes.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: t.baseUrl });
    await blockForeignRequests(context, (url) => url.origin === t.baseUrl, foreign);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on("websocket", (socket) => {
      sockets.push(socket.url());
      socket.on("framesent", (frame) => sent.push(JSON.parse(String(frame.payload))));
    });
    collectPageErrors(page, pageErrors);
    await reportCspViolations(page);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** An element's text, whitespace collapsed (Monaco wraps long lines and shows spaces as no-break spaces). */
  const text = async (selector: string) => (await page.locator(selector).innerText()).replace(/\s+/g, " ");
  const result = () => text(".graphiql-response");

  async function paste(editor: string, text: string) {
    await page.locator(editor).click();
    await page.evaluate((value) => navigator.clipboard.writeText(value), text);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("ControlOrMeta+V");
  }

  async function setHeaders(headers: Record<string, string>) {
    await page.getByRole("button", { name: "Headers", exact: true }).click();
    await paste(".graphiql-editor-tool .graphiql-editor:not(.hidden)", JSON.stringify(headers, null, 2));
  }

  const run = () => page.locator(".graphiql-execute-button").click();

  it("renders from the gateway's own files, prefilled with a query and where the token goes", async () => {
    const response = await page.goto(`${t.baseUrl}/graphql`);
    expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'self';/);
    await page.locator(".graphiql-query-editor .view-lines").waitFor();
    expect(await text(".graphiql-query-editor")).toContain("{ version publicMaintenanceAnnouncements(first: 5) {");
    expect(await text(".graphiql-query-editor")).toContain('{"Authorization": "Token <your token>"}');
  });

  it("runs the prefilled document as it is (no token), then `me` with the token from the Headers tab", async () => {
    await run();
    await expect.poll(result, { timeout: 10_000 }).toContain('"version": "');
    expect(await result()).not.toContain('"errors"');
    await paste(".graphiql-query-editor", "{ me { username isStaff } }");
    await setHeaders({ Authorization: `Token ${t.world.tokens.staff}` });
    await run();
    await expect.poll(result, { timeout: 10_000 }).toContain('"me": { "username": "staff", "isStaff": true }');
  });

  it("runs a subscription over graphql-ws with that token: a transition made over REST appears in the result pane", async () => {
    await paste(".graphiql-query-editor", SUBSCRIPTION);
    await run();
    await expect.poll(() => sent.some((message) => message.type === "subscribe"), { timeout: 10_000 }).toBe(true);
    expect(sent[0]).toEqual({ type: "connection_init", payload: { Authorization: `Token ${t.world.tokens.staff}` } });
    expect(sockets).toEqual([`ws://127.0.0.1:${t.port}/graphql`]);

    // The server hears of changes only once the subscription is registered: transition until one shows.
    let shown: string | undefined;
    for (let attempt = 0; attempt < 20 && !shown; attempt++) {
      const ou = await t.world.offeringUser("CREATION_REQUESTED");
      const moved = await t.socketHttp("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, { token: t.world.tokens.staff, body: {} });
      expect(moved.status).toBe(200);
      const appeared = await expect
        .poll(result, { timeout: 1_000 })
        .toContain(ou.uuid)
        .then(() => true, () => false);
      if (appeared) shown = ou.uuid;
    }
    expect(shown).toBeDefined();
    expect(await result()).toContain(`"offeringUserUuid": "${shown}", "previousState": "CREATION_REQUESTED", "state": "CREATING"`);
    await saveScreenshot(page, "graphiql");
  });

  it("shows a refused token's reason at once instead of reconnecting", async () => {
    await run(); // stops the running subscription
    await setHeaders({ Authorization: `Token ${"0".repeat(40)}` });
    await run();
    // graphql-ws reports a failed connection only after its last retry (its default: 5, over 30 s and more).
    await expect.poll(result, { timeout: 5_000 }).toContain("Invalid token. (WebSocket close code 4403)");
    expect(sockets).toHaveLength(2);
  });

  it("asked nothing of any host but the gateway, and broke no rule of its Content-Security-Policy", () => {
    expect(foreign).toEqual([]);
    expect(sockets.every((url) => url === `ws://127.0.0.1:${t.port}/graphql`)).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
