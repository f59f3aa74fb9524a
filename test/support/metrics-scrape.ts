import type { TestApp } from "./app.ts";
import { sleep } from "./ws.ts";

/** The sum of the samples of `name` whose labels include `labels`; 0 when there are none. */
export function sample(exposition: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of exposition.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) sum += Number(match[3]);
  }
  return sum;
}

/** Waits until the server has ended every GraphQL subscription (a closed client's end reaches it a little later). */
export async function noSubscriptionsOpen(t: TestApp, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = sample((await t.http("GET", "/metrics")).text, "gateway_graphql_open_subscriptions");
    if (open === 0) return;
    if (Date.now() > deadline) throw new Error(`${open} subscriptions still open after ${timeoutMs} ms`);
    await sleep(20);
  }
}
