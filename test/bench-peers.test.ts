/**
 * The bench's peers (bench/peers.ts, PostgreSQL only) serve the gateway's page: the Django REST Framework project's
 * unmanaged models and PostGraphile's derived names follow the tables Prisma creates, so a migration that renames a
 * table or column the page reads, or changes the default order, fails here rather than as a warning in a bench run.
 * DRF needs Debian's python3-django, python3-djangorestframework, python3-psycopg2 and gunicorn; PostGraphile needs a
 * bench run to have installed it (.bench/peers/postgraphile/): each is skipped without.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeDjango, startDrf } from "../bench/peers/drf.ts";
import type { PeerServer } from "../bench/peers/external-server.ts";
import { fetchPage, PEER_PAGE_SIZE, type PageSummary, pageDifference, type PeerTarget } from "../bench/peers/pages.ts";
import { installedVersion, startPostGraphile } from "../bench/peers/postgraphile.ts";
import { SEEDED_OFFERING_USERS, seedBenchData } from "../bench/seed.ts";
import { settings } from "../bench/settings.ts";
import { type App, createApp } from "../src/app.ts";
import type { Database } from "../src/platform/database/connect.ts";
import { type GatewayStorage, postgresStorage } from "./support/storage.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;

let storage: GatewayStorage;
let database: Database;
let app: App;
let token: string;
let gatewayUrl: string;
let gatewayPage: PageSummary;

async function pageOfPeer(target: PeerTarget, start: () => Promise<PeerServer>) {
  const server = await start();
  try {
    return await fetchPage(target, server.baseUrl, token);
  } finally {
    await server.stop();
  }
}

describe.skipIf(!postgresUrl)("the bench's peers answer the gateway's page", () => {
  beforeAll(async () => {
    storage = await postgresStorage(postgresUrl!);
    database = await storage.open();
    app = await createApp({ database, config: { seedDemo: false, logLevel: "silent", rateLimitMutations: 0 } });
    token = await seedBenchData(app.deps.db);
    gatewayUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
    gatewayPage = await fetchPage("graphql", gatewayUrl, token);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await storage?.dispose();
  });

  it("the gateway's GraphQL and REST pages are the page of ten the peers are held to", async () => {
    expect(gatewayPage.count).toBe(SEEDED_OFFERING_USERS);
    expect(gatewayPage.rows).toHaveLength(PEER_PAGE_SIZE);
    expect(pageDifference(gatewayPage, await fetchPage("rest", gatewayUrl, token))).toBeUndefined();
  });

  it("Django REST Framework answers the same rows and count", async (context) => {
    const django = await probeDjango(settings.peersPython);
    if ("unavailable" in django) return context.skip(django.unavailable);
    const page = await pageOfPeer("drf", () => startDrf(settings.peersPython, storage.url!, { threads: 2, auth: "token" }));
    expect(pageDifference(gatewayPage, page)).toBeUndefined();
  });

  it("Django REST Framework with token authentication refuses a key that is no token", async (context) => {
    const django = await probeDjango(settings.peersPython);
    if ("unavailable" in django) return context.skip(django.unavailable);
    const server = await startDrf(settings.peersPython, storage.url!, { threads: 2, auth: "token" });
    try {
      const answer = await fetch(`${server.baseUrl}/api/marketplace-offering-users/`, { headers: { authorization: `Token ${"0".repeat(40)}` } });
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ detail: "Invalid token." });
    } finally {
      await server.stop();
    }
  });

  it("PostGraphile answers the same rows and count", async (context) => {
    if (!installedVersion()) return context.skip("PostGraphile is not installed in .bench/peers/postgraphile (a bench run of the peers scenario installs it)");
    const page = await pageOfPeer("postgraphile", () => startPostGraphile(storage.url!, 2));
    expect(pageDifference(gatewayPage, page)).toBeUndefined();
  });
});
