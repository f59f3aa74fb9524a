import type { App } from "../app.ts";
import { issueToken } from "./tokens.ts";

/** One demo user calling the app's REST API in-process, as a client would over HTTP. */
export interface DemoCaller {
  username: string;
  /** POSTs a JSON body; any answer but 2xx throws with the status and the body. */
  post(path: string, body?: Record<string, unknown>): Promise<void>;
  /** Signs the caller's seeding token out again, so no unused token stays valid. */
  logout(): Promise<void>;
}

/** The Host the seeding requests name: one ALLOWED_HOSTS accepts, since the app checks it like any other request. */
function seedHost(app: App): string {
  const { publicUrl, allowedHosts } = app.deps.config;
  if (publicUrl) return new URL(publicUrl).host;
  const named = allowedHosts.find((pattern) => pattern !== "*");
  return named && !allowedHosts.includes("*") ? named.replace(/^\./, "") : "localhost";
}

export async function demoCaller(app: App, username: string): Promise<DemoCaller> {
  const token = await issueToken(app.deps.db, username);
  if (!token) throw new Error(`Demo seed: no user ${username}`);
  const host = seedHost(app);
  const send = async (path: string, body: Record<string, unknown>) => {
    const response = await app.fetch(
      new Request(`http://${host}${path}`, {
        method: "POST",
        headers: { authorization: `Token ${token}`, "content-type": "application/json", "x-request-id": "demo-seed" },
        body: JSON.stringify(body),
      }),
    );
    const text = await response.text();
    if (response.status < 200 || response.status >= 300) {
      throw new Error(`Demo seed: POST ${path} as ${username} answered ${response.status}: ${text}`);
    }
  };
  return { username, post: (path, body = {}) => send(path, body), logout: () => send("/api-auth/logout/", {}) };
}
