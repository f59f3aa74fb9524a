import { GraphQLError } from "graphql";
import { DomainError, ErrorCode, notFound } from "./errors.ts";

/** SQLSTATE class 22 (data exception) and Prisma's value errors: bad input that slipped past validation. */
const CLIENT_DATA_PRISMA_CODES = new Set(["P2000", "P2006", "P2007", "P2020", "P2023"]);
const MESSAGES: Record<string, string> = { "22021": "Null characters are not allowed." };

const TOO_SLOW = "The database took too long to answer.";
/** Rejections that mean the database is busy rather than the request wrong or the code broken: 503, try again. */
const BUSY_SQLSTATES: Record<string, string> = {
  "57014": TOO_SLOW, // query_canceled: DATABASE_STATEMENT_TIMEOUT_MS ran out
  "55P03": TOO_SLOW, // lock_not_available: a lock_timeout ran out
  "53300": "The database has no free connection.", // too_many_connections
};
/** P2028: the interactive transaction ran out of time (or could not start in time, every connection being busy). */
const BUSY_PRISMA_CODES: Record<string, string> = { P2028: TOO_SLOW };
const RETRY_AFTER_SECONDS = "1";

type DriverAdapterCause = { code?: string; originalCode?: string };

function sqlState(error: unknown): string | undefined {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: DriverAdapterCause } } }).meta?.driverAdapterError?.cause;
  return cause?.code ?? cause?.originalCode;
}

/** Turns a database rejection caused by the input into a 400-class validation error; anything else stays masked. */
export function clientDataError(error: unknown): DomainError | null {
  const state = sqlState(error);
  const prismaCode = (error as { code?: string }).code;
  if (!(state?.startsWith("22") || (prismaCode && CLIENT_DATA_PRISMA_CODES.has(prismaCode)))) return null;
  const message = (state && MESSAGES[state]) ?? "Invalid value.";
  return new DomainError(ErrorCode.VALIDATION, message, { fields: { non_field_errors: [message] } });
}

/** A timeout or exhausted database as an UNAVAILABLE error (503 with Retry-After) instead of a masked 500; else null. */
export function databaseBusyError(error: unknown): GraphQLError | null {
  const state = sqlState(error);
  const prismaCode = (error as { code?: string }).code;
  const message = (state && BUSY_SQLSTATES[state]) || (prismaCode && BUSY_PRISMA_CODES[prismaCode]);
  if (!message) return null;
  return new GraphQLError(message, {
    extensions: { code: ErrorCode.UNAVAILABLE, http: { headers: { "Retry-After": RETRY_AFTER_SECONDS } } },
  });
}

/**
 * P2025: the record an update or delete needed was gone — a concurrent request deleted it between this request's
 * read and its write. To this request it is now an unknown object: 404, as Waldur answers for one.
 */
export function vanishedRecordError(error: unknown): DomainError | null {
  return (error as { code?: string }).code === "P2025" ? notFound() : null;
}

/** The answer a client gets for a database error it can act on (fix its input, or retry later); null for the rest. */
export const databaseErrorForClient = (error: unknown) => clientDataError(error) ?? vanishedRecordError(error) ?? databaseBusyError(error);
