/** Which browsers' pages may call the API, which Host headers are served, and whether this is a production run. */
export interface SecuritySettings {
  /** `NODE_ENV=production`: safe defaults (no demo data, /metrics only with a token, only allowed hosts). */
  production: boolean;
  /** Origins other than the API's own whose pages may read its responses (CORS); `["*"]`: any; empty: none. */
  corsOrigins: string[];
  /** Host header patterns served (Django's ALLOWED_HOSTS: exact, `.example.org` = it and its subdomains, `*`). */
  allowedHosts: string[];
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
 * ALLOWED_HOSTS when given; otherwise any host in development, and in production the host of PUBLIC_URL (or, without
 * it, the machine itself): a production server never writes URLs or serves pages for a Host nobody configured.
 */
function allowedHosts(env: NodeJS.ProcessEnv, production: boolean): string[] {
  const configured = list(env.ALLOWED_HOSTS?.toLowerCase());
  if (configured.length) return configured;
  if (!production) return ["*"];
  const publicUrl = env.PUBLIC_URL?.trim();
  return publicUrl ? [new URL(publicUrl).hostname] : LOOPBACK_HOSTS;
}

export function loadSecuritySettings(env: NodeJS.ProcessEnv = process.env): SecuritySettings {
  const production = env.NODE_ENV === "production";
  return { production, corsOrigins: corsOrigins(env.CORS_ORIGINS), allowedHosts: allowedHosts(env, production) };
}
