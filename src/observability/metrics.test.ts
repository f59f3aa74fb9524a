import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { useSubscriptionApp } from "../../test/support/subscription-app.ts";
import { sample } from "../../test/support/metrics-scrape.ts";
import { sleep } from "../../test/support/ws.ts";
import { GatewayMetrics, metricsEndpoint } from "./metrics.ts";

const { t, clients } = useSubscriptionApp();

const scrape = async () => {
  const res = await t.socketHttp("GET", "/metrics");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text;
};

async function eventually(name: string, labels: Record<string, string>, expected: number) {
  const deadline = Date.now() + 5_000;
  let value = NaN;
  while (Date.now() < deadline) {
    value = sample(await scrape(), name, labels);
    if (value === expected) return;
    await sleep(50);
  }
  expect(value, `${name} ${JSON.stringify(labels)}`).toBe(expected);
}

describe("GET /metrics", () => {
  it("counts REST and GraphQL requests by method, route pattern and status, and their operations by name, type and source", async () => {
    const staff = t.world.tokens.staff;
    expect((await t.socketHttp("GET", "/api/users/me/", { token: staff })).status).toBe(200);
    expect((await t.socketHttp("GET", "/api/users/me", { token: staff })).status).toBe(200);
    expect((await t.socketHttp("GET", `/api/users/${t.world.users.staff.uuid}/`, { token: staff })).status).toBe(200);
    expect((await t.socketHttp("GET", "/api/users/me/")).status).toBe(401);
    const whoAmI = await t.socketHttp("POST", "/graphql", { token: staff, body: { query: "query WhoAmI { me { username } }" } });
    expect(whoAmI.body.data).toEqual({ me: { username: "staff" } });
    expect((await t.socketHttp("GET", "/no/such/path")).status).toBe(404);

    const text = await scrape();
    const http = (labels: Record<string, string>) => sample(text, "gateway_http_requests_total", labels);
    expect(http({ method: "GET", route: "/api/users/me/", status: "200" })).toBe(2);
    expect(http({ method: "GET", route: "/api/users/me/", status: "401" })).toBe(1);
    expect(http({ method: "GET", route: "/api/users/:uuid/", status: "200" })).toBe(1);
    expect(http({ method: "POST", route: "/graphql", status: "200" })).toBe(1);
    expect(http({ method: "GET", route: "unmatched", status: "404" })).toBe(1);
    expect(sample(text, "gateway_http_request_duration_seconds_count", { route: "/api/users/me/", status: "200" })).toBe(2);
    expect(sample(text, "gateway_http_request_duration_seconds_bucket", { route: "/graphql", le: "+Inf" })).toBe(1);

    const operations = (labels: Record<string, string>) => sample(text, "gateway_graphql_operations_total", labels);
    expect(operations({ operation: "me", type: "query", source: "rest", outcome: "ok" })).toBe(2);
    expect(operations({ operation: "user", type: "query", source: "rest", outcome: "ok" })).toBe(1);
    expect(operations({ operation: "WhoAmI", type: "query", source: "graphql", outcome: "ok" })).toBe(1);
    expect(sample(text, "gateway_graphql_operation_duration_seconds_count", { operation: "WhoAmI", source: "graphql" })).toBe(1);

    expect(sample(text, "gateway_database_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
  });

  it("counts GraphQL errors as outcome=error", async () => {
    await t.gql(`query Anonymous { me { uuid } }`, {});
    expect(sample(await scrape(), "gateway_graphql_operations_total", { operation: "Anonymous", outcome: "error" })).toBe(1);
  });

  it("counts the events published after a state-changing mutation, by topic", async () => {
    const before = sample(await scrape(), "gateway_events_published_total", { topic: "offeringUserChanged" });
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const res = await t.socketHttp("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} });
    expect(res.status).toBe(200);
    const text = await scrape();
    expect(sample(text, "gateway_events_published_total", { topic: "offeringUserChanged" })).toBe(before + 1);
    expect(sample(text, "gateway_graphql_operations_total", { type: "mutation", source: "rest", outcome: "ok" })).toBeGreaterThanOrEqual(1);
  });

  it("keeps gauges of open graphql-ws connections and subscriptions that go up and back down", async () => {
    await eventually("gateway_graphql_open_subscriptions", {}, 0);
    const client = clients.open(t.world.tokens.staff);
    const feed = clients.subscribe(client, "subscription Changes { offeringUserChanged { offeringUserUuid state } }");
    await eventually("gateway_websocket_open_connections", {}, 1);
    await eventually("gateway_graphql_open_subscriptions", { source: "websocket" }, 1);

    const second = clients.subscribe(client, "subscription MoreChanges { offeringUserChanged { offeringUserUuid } }");
    await eventually("gateway_graphql_open_subscriptions", { source: "websocket" }, 2);
    second.stop();
    await eventually("gateway_graphql_open_subscriptions", { source: "websocket" }, 1);

    const text = await scrape();
    expect(sample(text, "gateway_graphql_operations_total", { operation: "Changes", type: "subscription", source: "websocket" })).toBe(1);

    feed.stop();
    await eventually("gateway_graphql_open_subscriptions", { source: "websocket" }, 0);
    await client.dispose();
    await eventually("gateway_websocket_open_connections", {}, 0);
  });
});

describe("METRICS_TOKEN", () => {
  const app = new Hono();
  app.get("/metrics", metricsEndpoint(new GatewayMetrics(() => ({ total: 1 })), "s3cret-token"));

  it("asks for the bearer token when one is configured", async () => {
    const without = await app.request("/metrics");
    expect(without.status).toBe(401);
    expect(without.headers.get("www-authenticate")).toBe("Bearer");
    expect((await app.request("/metrics", { headers: { Authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await app.request("/metrics", { headers: { Authorization: "Token s3cret-token" } })).status).toBe(401);
    const allowed = await app.request("/metrics", { headers: { Authorization: "Bearer s3cret-token" } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain("gateway_http_requests_total");
  });

  it("keeps metrics of two apps in one process apart", async () => {
    const one = new GatewayMetrics(() => ({ total: 1 }));
    const two = new GatewayMetrics(() => ({ total: 5, idle: 4, waiting: 0 }));
    one.recordPublish("orderChanged");
    expect(sample(await one.exposition(), "gateway_events_published_total", { topic: "orderChanged" })).toBe(1);
    const other = await two.exposition();
    expect(sample(other, "gateway_events_published_total", { topic: "orderChanged" })).toBe(0);
    expect(sample(other, "gateway_database_connections", { state: "idle" })).toBe(4);
  });
});
