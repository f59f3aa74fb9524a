import { afterAll, beforeAll } from "vitest";
import { startTestApp, type TestApp } from "./app.ts";
import { SubscriptionClients } from "./ws.ts";

/**
 * The usual set-up of a subscription test file: one test app for the file (beforeAll) and the
 * graphql-ws clients and SSE feeds its tests open, all closed after the file, before the app (afterAll).
 * Call it at the top level; `t` reads the started app, so use it only inside tests, hooks and the
 * functions they call.
 */
export function useSubscriptionApp(...args: Parameters<typeof startTestApp>): { t: TestApp; clients: SubscriptionClients } {
  let started: TestApp | undefined;
  const current = () => {
    if (!started) throw new Error("the test app is not started yet: use it inside a test or hook");
    return started;
  };
  const clients = new SubscriptionClients(() => current().port);
  beforeAll(async () => {
    started = await startTestApp(...args);
  });
  afterAll(async () => {
    await clients.closeAll();
    await started?.close();
  });
  const t: TestApp = {
    get app() {
      return current().app;
    },
    get world() {
      return current().world;
    },
    get baseUrl() {
      return current().baseUrl;
    },
    get port() {
      return current().port;
    },
    http: (method, path, options) => current().http(method, path, options),
    socketHttp: (method, path, options) => current().socketHttp(method, path, options),
    gql: (query, variables, token) => current().gql(query, variables, token),
    close: () => current().close(),
  };
  return { t, clients };
}
