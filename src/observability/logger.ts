import { type DestinationStream, type Logger, pino } from "pino";
import type { LogLevel } from "../platform/settings/observability-settings.ts";

export type { Logger } from "pino";

/** JSON lines: ISO time, level names, errors under `err` with their stack. Stdout unless a destination is given. */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "marketplace-gateway" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    serializers: { err: pino.stdSerializers.err },
  };
  return destination ? pino(options, destination) : pino(options);
}
