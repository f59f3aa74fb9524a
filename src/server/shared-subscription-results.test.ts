import { parse } from "graphql";
import { createSchema, createYoga } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { TopicHub } from "../platform/messaging/topic-hub.ts";
import { useSharedSubscriptionResults } from "./shared-subscription-results.ts";

/**
 * The plugin on a yoga of its own: a schema whose subscription reads a hub topic and whose field counts how often
 * it is resolved, so the count shows how many executions the deliveries cost.
 */
function harness() {
  const hub = new TopicHub(new EventTarget());
  let resolved = 0;
  const schema = createSchema<{ viewer: { id: string } | null; baseUrl: string }>({
    typeDefs: /* GraphQL */ `
      type Query { ok: Boolean }
      type Change { n: Int, seenBy: String, doubled(times: Int): Int }
      type Subscription { changed: Change }
    `,
    resolvers: {
      Subscription: { changed: { subscribe: () => hub.subscribe("changed"), resolve: (payload: unknown) => payload } },
      Change: {
        seenBy: (_p: unknown, _a: unknown, ctx: { viewer: { id: string } | null; baseUrl: string }) => `${ctx.viewer?.id}@${ctx.baseUrl}`,
        doubled: (p: { n: number }, args: { times?: number }) => {
          resolved += 1;
          return p.n * 2 * (args.times ?? 1);
        },
      },
    },
  });
  const yoga = createYoga({ schema, plugins: [useSharedSubscriptionResults()] });
  const subscribe = async (query: string, viewer: string | null, variables?: Record<string, unknown>, baseUrl = "http://a") => {
    const enveloped = yoga.getEnveloped({});
    const result = await enveloped.subscribe({
      schema: enveloped.schema,
      document: parse(query),
      variableValues: variables,
      contextValue: { viewer: viewer ? { id: viewer } : null, baseUrl },
    });
    return result as AsyncIterableIterator<{ data: { changed: Record<string, unknown> } }>;
  };
  return { hub, subscribe, resolved: () => resolved };
}

const QUERY = "subscription { changed { n seenBy doubled } }";

describe("shared subscription results", () => {
  it("executes once per change for every subscription with the same viewer, origin, document and variables", async () => {
    const h = harness();
    const streams = await Promise.all(Array.from({ length: 25 }, () => h.subscribe(QUERY, "alice")));
    h.hub.publish("changed", { n: 21 });
    const deliveries = await Promise.all(streams.map((s) => s.next()));
    for (const delivery of deliveries) expect(delivery.value.data.changed).toEqual({ n: 21, seenBy: "alice@http://a", doubled: 42 });
    expect(h.resolved()).toBe(1);
    h.hub.publish("changed", { n: 1 });
    await Promise.all(streams.map((s) => s.next()));
    expect(h.resolved()).toBe(2);
  });

  it("executes separately per viewer, origin and variables, each with its own context", async () => {
    const h = harness();
    const query = "subscription ($t: Int) { changed { seenBy doubled(times: $t) } }";
    const streams = await Promise.all([
      h.subscribe(query, "alice", { t: 1 }),
      h.subscribe(query, "alice", { t: 3 }),
      h.subscribe(query, "bob", { t: 1 }),
      h.subscribe(query, "alice", { t: 1 }, "http://b"),
      h.subscribe(query, null, { t: 1 }),
    ]);
    h.hub.publish("changed", { n: 5 });
    const changes = (await Promise.all(streams.map((s) => s.next()))).map((d) => d.value.data.changed);
    expect(changes).toEqual([
      { seenBy: "alice@http://a", doubled: 10 },
      { seenBy: "alice@http://a", doubled: 30 },
      { seenBy: "bob@http://a", doubled: 10 },
      { seenBy: "alice@http://b", doubled: 10 },
      { seenBy: "undefined@http://a", doubled: 10 },
    ]);
    expect(h.resolved()).toBe(5);
  });

  it("releases the topic when a subscriber returns", async () => {
    const h = harness();
    const stream = await h.subscribe(QUERY, "alice");
    expect(h.hub.size).toBe(1);
    await stream.return?.();
    expect(h.hub.size).toBe(0);
  });

  it("executes the next changes while one is delivered, and delivers them in order before an interruption", async () => {
    const h = harness();
    const stream = await h.subscribe("subscription { changed { doubled } }", "alice");
    const first = stream.next();
    for (const n of [1, 2, 3, 4, 5, 6]) h.hub.publish("changed", { n });
    expect((await first).value.data.changed).toEqual({ doubled: 2 });
    // Never asked for, the next three were executed meanwhile.
    for (let turn = 0; turn < 10 && h.resolved() < 4; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(h.resolved()).toBe(4);
    h.hub.interrupt("changed");
    const rest = [];
    for (let next = await stream.next(); !next.done; next = await stream.next()) rest.push(JSON.parse(JSON.stringify(next.value)));
    expect(rest).toEqual([
      ...[4, 6, 8].map((doubled) => ({ data: { changed: { doubled } } })),
      { errors: [{ message: "Subscription feed interrupted; re-read and resubscribe.", extensions: { code: "SUBSCRIPTION_INTERRUPTED" } }] },
    ]);
  });

  it("ends a subscription the hub interrupted with one last result naming why, then completes", async () => {
    const h = harness();
    const stream = await h.subscribe(QUERY, "alice");
    const waiting = stream.next();
    h.hub.interrupt("changed");
    const last = (await waiting) as IteratorResult<unknown>;
    expect(JSON.parse(JSON.stringify(last.value))).toEqual({
      errors: [{ message: "Subscription feed interrupted; re-read and resubscribe.", extensions: { code: "SUBSCRIPTION_INTERRUPTED" } }],
    });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(h.hub.size).toBe(0);
  });
});
