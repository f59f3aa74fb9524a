/**
 * The soak scenario: `npm start`'s command (built dist/) on the embedded database, used as a provider's day is — REST
 * and GraphQL pages, records, the event log and offering-user transitions, paced at BENCH_SOAK_RATE requests/s — for
 * BENCH_SOAK_MINUTES. Resident set size (VmRSS) is sampled every 10 s. RSS rises and falls with V8's collections, so
 * the figure compares peaks: the highest sample of the last minute over the highest of the second (target ≤ 1.3:
 * memory that grows with use, not with time, levels off).
 */
import { performance } from "node:perf_hooks";
import { buildIfStale, startArguments } from "../scripts/build.ts";
import { auth, cyclingOfferingUsers, nextOperationOf, nextStateOf, type Tracked } from "./offering-user-cycle.ts";
import { rssMb, sleep, startEmbeddedGateway, type Gateway } from "./idle-memory.ts";

export const SOAK_GROWTH_TARGET = 1.3;
const SAMPLE_EVERY_MS = 10_000;
const MINUTE_S = 60;

export interface SoakRow {
  minutes: number;
  requestsPerSecond: number;
  requests: number;
  failures: number;
  transitions: number;
  /** Highest RSS of the second minute, and of the last. */
  rssAfterMinuteMb: number;
  rssEndMb: number;
  rssMaxMb: number;
  growth: number;
  /** [seconds since start, MB] every 10 s. */
  samples: Array<[number, number]>;
}

const PAGE = `query Page { offeringUsers(first: 10) { totalCount nodes { uuid state created user { username email fullName } offering { name } } } }`;

/** The mix, one entry a request; a transition where the cycle has a next step. */
function mixedUse(gateway: Gateway, cycling: Tracked[]): Array<() => Promise<{ ok: boolean; transition?: boolean }>> {
  const headers = auth(gateway.token);
  const get = (path: string) => async () => ({ ok: (await drain(fetch(`${gateway.baseUrl}${path}`, { headers }))) === 200 });
  const graphql = (query: string) => async () => ({
    ok: (await drain(fetch(`${gateway.baseUrl}/graphql`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ query }) }))) === 200,
  });
  let turn = 0;
  const transition = async () => {
    const user = cycling[turn++ % cycling.length];
    if (!user) return { ok: true };
    const status = await drain(fetch(`${gateway.baseUrl}/api/marketplace-offering-users/${user.uuid}/${nextOperationOf(user).operation}/`, { method: "POST", headers }));
    if (status === 200) user.state = nextStateOf(user);
    return { ok: status === 200, transition: true };
  };
  return [
    get("/api/marketplace-offering-users/?page_size=10"),
    graphql(PAGE),
    get("/api/events/?page_size=10"),
    get("/api/marketplace-orders/?page_size=10"),
    graphql("{ me { username roles { role } } }"),
    get("/api/marketplace-provider-offerings/"),
    transition,
    get(`/api/marketplace-offering-users/?page_size=10&o=-created`),
    graphql(`{ events(first: 20) { nodes { eventType created } } }`),
    transition,
  ];
}

async function drain(response: Promise<Response>): Promise<number> {
  const answer = await response;
  await answer.arrayBuffer();
  return answer.status;
}

export async function runSoak({ minutes, rate }: { minutes: number; rate: number }, log: (message: string) => void): Promise<SoakRow> {
  await buildIfStale();
  const gateway = await startEmbeddedGateway(startArguments());
  try {
    const mix = mixedUse(gateway, await cyclingOfferingUsers(gateway.baseUrl, gateway.token));
    const started = performance.now();
    const end = started + minutes * 60_000;
    const samples: Array<[number, number]> = [];
    let [requests, failures, transitions] = [0, 0, 0];
    const sampler = setInterval(() => samples.push([Math.round((performance.now() - started) / 1000), rssMb(gateway.pid)]), SAMPLE_EVERY_MS);
    try {
      for (let due = started; performance.now() < end; due += 1000 / rate) {
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const { ok, transition } = await mix[requests % mix.length]();
        requests++;
        if (!ok) failures++;
        if (transition) transitions++;
        if (requests % (rate * 60) === 0) log(`soak: ${Math.round((performance.now() - started) / 60_000)} min, RSS ${samples.at(-1)?.[1].toFixed(0)} MB`);
      }
    } finally {
      clearInterval(sampler);
    }
    const lastSecond = samples.at(-1)![0];
    const peak = (from: number, to: number) => Math.max(...samples.filter(([seconds]) => seconds > from && seconds <= to).map(([, mb]) => mb));
    const afterMinute = peak(MINUTE_S, 2 * MINUTE_S);
    const rssEndMb = peak(lastSecond - MINUTE_S, lastSecond);
    return {
      minutes,
      requestsPerSecond: requests / ((performance.now() - started) / 1000),
      requests,
      failures,
      transitions,
      rssAfterMinuteMb: afterMinute,
      rssEndMb,
      rssMaxMb: Math.max(...samples.map(([, mb]) => mb)),
      growth: rssEndMb / afterMinute,
      samples,
    };
  } finally {
    await gateway.stop();
  }
}
