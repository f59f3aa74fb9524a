export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ObservabilitySettings {
  logLevel: LogLevel;
  /** When set, `GET /metrics` needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
}

function logLevel(raw: string | undefined): LogLevel {
  const level = raw?.trim().toLowerCase() || "info";
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
  return level as LogLevel;
}

export function loadObservabilitySettings(env: NodeJS.ProcessEnv = process.env): ObservabilitySettings {
  return {
    logLevel: logLevel(env.LOG_LEVEL),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
  };
}
