import { type GraphqlSettings, loadGraphqlSettings } from "./graphql-settings.ts";
import { loadObservabilitySettings, type ObservabilitySettings } from "./observability-settings.ts";
import { loadRateLimitSettings, type RateLimitSettings } from "../throttling/rate-limit.ts";
import { type DeploymentSettings, loadDeploymentSettings } from "./deployment-settings.ts";
import { loadProxySettings, type ProxySettings } from "./proxy-settings.ts";
import { loadSecuritySettings, type SecuritySettings } from "./security-settings.ts";
import { loadSeedSettings, type SeedSettings } from "./seed-settings.ts";
import { envFlag } from "./env-flag.ts";
import { type BrokerSettings, loadBrokerSettings } from "./broker-settings.ts";
import { loadStuckSettings, type StuckSettings } from "./stuck-settings.ts";

export interface Config extends GraphqlSettings, ObservabilitySettings, RateLimitSettings, DeploymentSettings, ProxySettings, SecuritySettings, SeedSettings, BrokerSettings, StuckSettings {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Namespace of pub/sub topics, so deployments sharing one Redis do not hear each other. */
  pubsubPrefix: string;
  publicUrl: string | undefined;
  adminToken: string | undefined;
  enforceUserConsent: boolean;
  maxBodyBytes: number;
  /** Agents reporting an older version are flagged incompatible; unset means unknown. */
  siteAgentMinimumVersion: string | undefined;
}


export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const adminToken = env.ADMIN_TOKEN?.trim() || undefined;
  if (adminToken !== undefined && !/^[0-9a-f]{40}$/i.test(adminToken)) {
    throw new Error("ADMIN_TOKEN must be 40 hexadecimal characters");
  }
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error("DATABASE_URL must be a postgresql:// URL (leave it unset for the embedded database)");
  }
  return {
    port: Number(env.PORT ?? 8000),
    host: env.HOST ?? "0.0.0.0",
    dataDir: env.GATEWAY_DATA_DIR ?? "./data",
    databaseUrl,
    redisUrl: env.REDIS_URL?.trim() || undefined,
    pubsubPrefix: env.PUBSUB_PREFIX?.trim() || "gateway",
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, "") || undefined,
    adminToken: adminToken?.toLowerCase(),
    enforceUserConsent: envFlag(env.ENFORCE_USER_CONSENT_FOR_OFFERINGS),
    maxBodyBytes: Number(env.MAX_BODY_BYTES ?? 1_048_576),
    siteAgentMinimumVersion: env.SITE_AGENT_MINIMUM_VERSION?.trim() || undefined,
    ...loadGraphqlSettings(env),
    ...loadObservabilitySettings(env),
    ...loadRateLimitSettings(env),
    ...loadDeploymentSettings(env),
    ...loadProxySettings(env),
    ...loadSecuritySettings(env),
    ...loadSeedSettings(env),
    ...loadBrokerSettings(env),
    ...loadStuckSettings(env),
  };
}
