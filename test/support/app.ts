import { randomBytes } from "node:crypto";
import type { DestinationStream } from "pino";
import { type App, createApp } from "../../src/app.ts";
import type { Config } from "../../src/platform/settings/config.ts";
import { freshDatabase } from "./database.ts";
import { buildWorld, type World } from "./world.ts";
import { waldurResponseProblems } from "../waldur/response-check.ts";

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface HttpOptions {
  token?: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: App;
  world: World;
  baseUrl: string;
  port: number;
  /** A request handled in-process by the app (`app.fetch`), as over HTTP but without a socket: no client address. */
  http<T = any>(method: string, path: string, options?: HttpOptions): Promise<HttpResponse<T>>;
  /** A real HTTP request against the listening server, where the socket is the point (client address, headers, limits). */
  socketHttp<T = any>(method: string, path: string, options?: HttpOptions): Promise<HttpResponse<T>>;
  /** A GraphQL operation over HTTP. */
  gql<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, any> }> }>;
  close(): Promise<void>;
}

/** The whole service on a random port, over a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL). */
export async function startTestApp(config: Partial<Config> = {}, options: { now?: () => Date; logDestination?: DestinationStream } = {}): Promise<TestApp> {
  const database = await freshDatabase();
  const app = await createApp({
    database,
    now: options.now,
    logDestination: options.logDestination,
    // No mutation rate limit unless a test asks for one: many tests run hundreds of mutations with one token.
    config: { seedDemo: false, logLevel: "silent", rateLimitMutations: 0, pubsubPrefix: `test-${randomBytes(4).toString("hex")}`, ...config },
  });
  const world = await buildWorld(app.deps.db);
  const port = await app.listen(0, "127.0.0.1");
  const baseUrl = `http://127.0.0.1:${port}`;

  const request = (send: (request: Request) => Promise<Response>): TestApp["http"] => async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Token ${options.token}`;
    let body: string | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] = "application/json";
    }
    const response = await send(new Request(`${baseUrl}${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    const problems = waldurResponseProblems(method, new URL(`${baseUrl}${path}`), response.status, parsed);
    if (problems.length) throw new Error(`${method} ${path} answered what Waldur's py-client cannot parse:\n${problems.join("\n")}`);
    return { status: response.status, headers: response.headers, body: parsed as never, text };
  };
  const http = request(async (req) => app.fetch(req));
  const socketHttp = request((req) => fetch(req));

  return {
    app,
    world,
    baseUrl,
    port,
    http,
    socketHttp,
    async gql(query, variables, token) {
      const response = await http("POST", "/graphql", { token, body: { query, variables } });
      return response.body;
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
