import { createServer, type Server } from "node:http";
import { type Browser, type BrowserContext, chromium, type Page, type Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.ts";
import { browserSuiteTitle, CHROMIUM, collectPageErrors, hasChromium, reportCspViolations, saveScreenshot } from "../support/browser.ts";
import { createBody } from "../support/maintenance-fixtures.ts";

const SUBSCRIPTION = "subscription { publicMaintenanceChanged { maintenanceAnnouncementUuid kind state } }";

/** `EventSource.OPEN`. */
const EVENT_SOURCE_OPEN = 1;

interface PublicChange {
  maintenanceAnnouncementUuid: string;
  kind: string;
  state: string | null;
}

/** What the page keeps of its EventSource, on `window.statusFeed`. */
interface StatusFeed {
  changes: PublicChange[];
  errors: number;
  completed: boolean;
  readyState: () => number;
}

declare global {
  interface Window {
    statusFeed: StatusFeed;
  }
}

let t: TestApp;
let browser: Browser;
let context: BrowserContext;
/** Requests the pages tried to make to anywhere but the gateway and the status site (each was aborted). */
const foreign: string[] = [];
const pageErrors: string[] = [];

const STATUS_PAGE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Status</title></head>
<body><h1>Maintenance status</h1><ol id="changes"></ol></body></html>`;
/**
 * A status page's document, as locked down as the gateway's own pages but for connecting to the gateway. The gateway's
 * landing page cannot host one: its policy (`default-src 'none'`) forbids the EventSource connection.
 */
const statusPageHeaders = (connectSrc: string) => ({
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": `default-src 'none'; connect-src ${connectSrc}`,
});

/**
 * Another site's status page, which CORS_ORIGINS lists: a real server on loopback, as Chromium lets only a page that
 * itself came from a loopback address connect to one (Local Network Access).
 */
let statusSite: Server;
let statusOrigin: string;

async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the status site has no TCP address");
  return address.port;
}

interface StatusPage {
  page: Page;
  /** The page's requests to the gateway's /graphql. */
  graphqlRequests: Request[];
}

/** Opens `documentUrl` and, in it, an EventSource on `${streamBase}/graphql`; resolves once the stream is open. */
async function openStatusPage(documentUrl: string, streamBase: string): Promise<StatusPage> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const graphqlRequests: Request[] = [];
  page.on("request", (request) => void (new URL(request.url()).pathname === "/graphql" && graphqlRequests.push(request)));
  collectPageErrors(page, pageErrors, documentUrl);
  await page.goto(documentUrl);
  const opened = await page.evaluate(
    async ({ query, streamBase }) => {
      const list = document.getElementById("changes")!;
      const source = new EventSource(`${streamBase}/graphql?query=${encodeURIComponent(query)}`);
      const feed: StatusFeed = { changes: [], errors: 0, completed: false, readyState: () => source.readyState };
      window.statusFeed = feed;
      source.addEventListener("next", (event) => {
        const change: PublicChange = JSON.parse(event.data).data.publicMaintenanceChanged;
        feed.changes.push(change);
        list.append(Object.assign(document.createElement("li"), { textContent: `${change.kind} ${change.state} ${change.maintenanceAnnouncementUuid}` }));
      });
      source.addEventListener("complete", () => void (feed.completed = true));
      source.addEventListener("error", () => void (feed.errors += 1));
      return new Promise<boolean>((resolve) => {
        source.addEventListener("open", () => resolve(true), { once: true });
        source.addEventListener("error", () => resolve(false), { once: true });
      });
    },
    { query: SUBSCRIPTION, streamBase },
  );
  expect({ opened, pageErrors }).toEqual({ opened: true, pageErrors: [] });
  return { page, graphqlRequests };
}

/** The one request a page made: a plain EventSource GET (no custom header), answered with a stream. */
async function expectPlainEventSourceRequest({ graphqlRequests }: StatusPage) {
  expect(graphqlRequests).toHaveLength(1);
  const [request] = graphqlRequests;
  expect(request.method()).toBe("GET");
  expect(new URL(request.url()).searchParams.get("query")).toBe(SUBSCRIPTION);
  const headers = await request.allHeaders();
  expect(headers.accept).toBe("text/event-stream");
  for (const name of ["authorization", "x-graphql-yoga-csrf", "graphql-require-preflight", "content-type"]) expect(headers[name]).toBeUndefined();
  const response = await request.response();
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-type"]).toContain("text/event-stream");
  return { request: headers, response: response!.headers() };
}

const changes = ({ page }: StatusPage) => page.evaluate(() => window.statusFeed.changes);

/** A provider owner creates an announcement and schedules it over REST: it enters the public view. */
async function scheduleAnnouncement(): Promise<string> {
  const token = t.world.tokens.providerOwner;
  const created = await t.http("POST", "/api/maintenance-announcements/", { token, body: createBody(t) });
  expect(created.status).toBe(201);
  const scheduled = await t.http("POST", `/api/maintenance-announcements/${created.body.uuid}/schedule/`, { token });
  expect(scheduled.status).toBe(200);
  return created.body.uuid;
}

describe.skipIf(!hasChromium)(browserSuiteTitle("A status page follows public maintenance with EventSource", "test/browser/event-source.test.ts"), () => {
  let sameOrigin: StatusPage;
  let crossOrigin: StatusPage;

  beforeAll(async () => {
    statusSite = createServer((_request, response) => response.writeHead(200, statusPageHeaders(`http://127.0.0.1:${t.port}`)).end(STATUS_PAGE_HTML));
    statusOrigin = `http://127.0.0.1:${await listenOnLoopback(statusSite)}`;
    t = await startTestApp({ corsOrigins: [statusOrigin] });
    browser = await chromium.launch({ executablePath: CHROMIUM });
    context = await browser.newContext({ viewport: { width: 1000, height: 400 } });
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.origin === t.baseUrl && url.pathname === "/status") {
        return route.fulfill({ status: 200, headers: statusPageHeaders("'self'"), body: STATUS_PAGE_HTML });
      }
      if (url.origin === t.baseUrl || url.origin === statusOrigin) return route.continue();
      foreign.push(url.href);
      return route.abort("blockedbyclient");
    });
    await reportCspViolations(context);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise((resolve) => statusSite?.close(resolve));
  });

  it("a page of the gateway's origin opens a plain EventSource on /graphql", async () => {
    sameOrigin = await openStatusPage(`${t.baseUrl}/status`, "");
    const { request } = await expectPlainEventSourceRequest(sameOrigin);
    expect(request.origin).toBeUndefined();
  });

  it("so does a page of a site CORS_ORIGINS lists, and the stream is readable there", async () => {
    crossOrigin = await openStatusPage(`${statusOrigin}/`, t.baseUrl);
    const { request, response } = await expectPlainEventSourceRequest(crossOrigin);
    expect(request.origin).toBe(statusOrigin);
    expect(response["access-control-allow-origin"]).toBe(statusOrigin);
  });

  it("both hear, within 2 s, that an announcement scheduled over REST entered the public view", async () => {
    const pages = [sameOrigin, crossOrigin];
    // The server hears of changes only once a subscription is registered: schedule until both pages show one.
    let heard: { uuid: string; changes: Array<PublicChange | undefined> } | undefined;
    for (let attempt = 0; attempt < 10 && !heard; attempt++) {
      const uuid = await scheduleAnnouncement();
      const find = () => Promise.all(pages.map(async (page) => (await changes(page)).find((change) => change.maintenanceAnnouncementUuid === uuid)));
      const both = await expect
        .poll(async () => (await find()).every(Boolean), { timeout: 2_000, interval: 50 })
        .toBe(true)
        .then(find, () => undefined);
      if (both) heard = { uuid, changes: both };
    }
    expect(heard).toBeDefined();
    const expected = { maintenanceAnnouncementUuid: heard!.uuid, kind: "ENTERED", state: "SCHEDULED" };
    expect(heard!.changes).toEqual([expected, expected]);

    for (const { page } of pages) {
      const feed = await page.evaluate(() => ({ errors: window.statusFeed.errors, completed: window.statusFeed.completed, readyState: window.statusFeed.readyState() }));
      expect(feed).toEqual({ errors: 0, completed: false, readyState: EVENT_SOURCE_OPEN });
      expect(await page.locator("#changes").innerText()).toContain(`ENTERED SCHEDULED ${heard!.uuid}`);
    }
    await saveScreenshot(sameOrigin.page, "event-source");
  });

  it("asked nothing of any other host, with no CORS, CSRF or Content-Security-Policy error", () => {
    expect(foreign).toEqual([]);
    expect(sameOrigin.graphqlRequests).toHaveLength(1);
    expect(crossOrigin.graphqlRequests).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });
});
