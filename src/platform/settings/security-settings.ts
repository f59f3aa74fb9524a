import { readFileSync } from "node:fs";
import { StartupRefusal } from "./startup-refusal.ts";
import { envFlag } from "./env-flag.ts";

/** Which browsers' pages may call the API, which Host headers are served, which documents run, and whether this is a production run. */
export interface SecuritySettings {
  /** `NODE_ENV=production`: safe defaults (no demo data, /metrics only with a token, only allowed hosts). */
  production: boolean;
  /** Origins other than the API's own whose pages may read its responses (CORS); `["*"]`: any; empty: none. */
  corsOrigins: string[];
  /** Host header patterns served (Django's ALLOWED_HOSTS: exact, `.example.org` = it and its subdomains, `*`). */
  allowedHosts: string[];
  /** PERSISTED_OPERATIONS: the documents clients may name by id instead of sending them (id → document); unset: none. */
  persistedOperations: ReadonlyMap<string, string> | undefined;
  /** PERSISTED_OPERATIONS_ONLY: /graphql and graphql-ws run only the documents of `persistedOperations` (REST is unaffected). */
  persistedOperationsOnly: boolean;
  /** TOKEN_CACHE_MS: how long a token found valid is trusted without a lookup (revocations still end it at once); 5000 by default, 0: off. */
  tokenCacheMs: number;
}

const DEFAULT_TOKEN_CACHE_MS = 5_000;

function tokenCacheMs(raw: string | undefined) {
  const value = raw?.trim() ? Number(raw) : DEFAULT_TOKEN_CACHE_MS;
  if (!Number.isInteger(value) || value < 0 || value > 60_000) throw new Error("TOKEN_CACHE_MS must be an integer from 0 to 60000");
  return value;
}

/** Django's fallback when DEBUG is on and ALLOWED_HOSTS is empty: the machine itself only. */
export const LOOPBACK_HOSTS = [".localhost", "127.0.0.1", "[::1]"];

const list = (raw: string | undefined) =>
  (raw ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

function corsOrigins(raw: string | undefined): string[] {
  const origins = list(raw);
  if (origins.includes("*")) {
    if (origins.length > 1) throw new Error("CORS_ORIGINS is either * or a list of origins, not both");
    return origins;
  }
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed?.origin !== origin) throw new Error(`CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port], no path or trailing slash)`);
  }
  return origins;
}

/**
 * ALLOWED_HOSTS when given; otherwise, as Django with an empty ALLOWED_HOSTS, the machine itself, and the host of
 * PUBLIC_URL when set (in production that host alone): a server never writes URLs or serves pages for a Host nobody
 * configured.
 */
function allowedHosts(env: NodeJS.ProcessEnv, production: boolean): string[] {
  const configured = list(env.ALLOWED_HOSTS?.toLowerCase());
  if (configured.length) return configured;
  const publicUrl = env.PUBLIC_URL?.trim();
  const publicHost = publicUrl ? [new URL(publicUrl).hostname] : [];
  if (production && publicHost.length) return publicHost;
  return [...new Set([...LOOPBACK_HOSTS, ...publicHost])];
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const APOLLO_MANIFEST_FORMAT = "apollo-persisted-query-manifest";

/** [id, document] pairs: an object's entries, or the `operations` ({ id, body }) of Apollo's manifest format. */
function manifestEntries(manifest: object): Array<[string, unknown]> {
  if (!("format" in manifest) || manifest.format !== APOLLO_MANIFEST_FORMAT) return Object.entries(manifest);
  const operations = "operations" in manifest && Array.isArray(manifest.operations) ? manifest.operations : [];
  return operations.map((operation: unknown, index): [string, unknown] =>
    operation && typeof operation === "object" && "id" in operation && typeof operation.id === "string" && "body" in operation
      ? [operation.id, operation.body]
      : [`operations[${index}]`, undefined],
  );
}

/**
 * The manifest at `path`: `{ "<sha256 hex>": "<document>" }` (graphql-codegen's client preset, Relay, Apollo's
 * persisted-query maps) or Apollo's `{ "format": "apollo-persisted-query-manifest", "operations": [{ id, body }] }`.
 */
function persistedOperations(path: string | undefined): ReadonlyMap<string, string> | undefined {
  if (!path) return undefined;
  const refuse = (reason: string) => new StartupRefusal(`PERSISTED_OPERATIONS: ${reason}`);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw refuse(`cannot read ${path} (${messageOf(error)})`);
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw refuse(`${path} is not valid JSON (${messageOf(error)})`);
  }
  if (!manifest || typeof manifest !== "object" || Array.isArray(manifest)) throw refuse(`${path} is not a JSON object of operation ids and documents`);
  const documents = new Map<string, string>();
  for (const [id, document] of manifestEntries(manifest)) {
    if (!id || typeof document !== "string" || !document.trim()) throw refuse(`${path}: ${JSON.stringify(id)} is not an operation id with a document`);
    documents.set(id, document);
  }
  return documents;
}

function persistedOperationsOnly(env: NodeJS.ProcessEnv, documents: ReadonlyMap<string, string> | undefined): boolean {
  const only = envFlag(env.PERSISTED_OPERATIONS_ONLY);
  if (only && !documents) throw new StartupRefusal("PERSISTED_OPERATIONS_ONLY=true needs PERSISTED_OPERATIONS (the path of the persisted operations' JSON manifest)");
  return only;
}

export function loadSecuritySettings(env: NodeJS.ProcessEnv = process.env): SecuritySettings {
  const production = env.NODE_ENV === "production";
  const documents = persistedOperations(env.PERSISTED_OPERATIONS?.trim());
  return {
    production,
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    allowedHosts: allowedHosts(env, production),
    persistedOperations: documents,
    persistedOperationsOnly: persistedOperationsOnly(env, documents),
    tokenCacheMs: tokenCacheMs(env.TOKEN_CACHE_MS),
  };
}
