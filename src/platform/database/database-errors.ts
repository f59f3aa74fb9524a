import { isDriverAdapterError } from "@prisma/driver-adapter-utils";
import { GraphQLError } from "graphql";
import { DomainError, ErrorCode, notFound, ValidationError, WHOLE_INPUT } from "../errors.ts";

/** SQLSTATE class 22 (data exception) and Prisma's value errors: bad input that slipped past validation. */
const CLIENT_DATA_PRISMA_CODES = new Set(["P2000", "P2006", "P2007", "P2020", "P2023"]);
const MESSAGES: Record<string, string> = { "22021": "Null characters are not allowed." };

const TOO_SLOW = "The database took too long to answer.";
const QUERY_CANCELED = "57014";
/** Rejections that mean the database is busy rather than the request wrong or the code broken: 503, try again. */
const BUSY_SQLSTATES: Record<string, string> = {
  [QUERY_CANCELED]: TOO_SLOW, // query_canceled: DATABASE_STATEMENT_TIMEOUT_MS ran out
  "55P03": TOO_SLOW, // lock_not_available: a lock_timeout ran out
  "53300": "The database has no free connection.", // too_many_connections
};
/** P2028: the interactive transaction ran out of time (or could not start in time, every connection being busy). */
const BUSY_PRISMA_CODES: Record<string, string> = { P2028: TOO_SLOW };
const RETRY_AFTER_SECONDS = "1";

const UNAVAILABLE = "The database is unavailable.";
/**
 * The connection broke or could not be made (restart, failover, a terminated backend, the network): 503, try again.
 * SQLSTATE class 08 (connection exception) and 57P01–57P03 (terminated, crashed, starting up); Prisma's codes and
 * driver-adapter kinds for the same; the socket's own codes; and node-postgres's plain Errors, known by message only.
 */
const CONNECTION_SQLSTATE = /^(08|57P0[123])/;
const CONNECTION_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const CONNECTION_ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);
const LOST_CONNECTION_MESSAGE = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/m;

type DriverAdapterCause = { code?: string | number; originalCode?: string; kind?: string };

/** The driver's own failure: inside Prisma's error, or bare when a raw statement in an interactive transaction fails. */
function adapterCause(error: unknown): DriverAdapterCause | undefined {
  if (isDriverAdapterError(error)) return error.cause;
  return (error as { meta?: { driverAdapterError?: { cause?: DriverAdapterCause } } }).meta?.driverAdapterError?.cause;
}

/** The driver's error itself, from a statement run on the pool (lone-statement.ts): its SQLSTATE beside a severity. */
function driverState(error: unknown): string | undefined {
  const { severity, code } = (error ?? {}) as { severity?: unknown; code?: unknown };
  return typeof severity === "string" && typeof code === "string" ? code : undefined;
}

function sqlState(error: unknown): string | undefined {
  const cause = adapterCause(error);
  if (!cause) return driverState(error);
  return typeof cause.code === "string" ? cause.code : cause.originalCode;
}

/** The statement was cancelled (its timeout, or a cancel sent to its backend). */
export const wasCancelled = (error: unknown) => sqlState(error) === QUERY_CANCELED;

function connectionFailed(error: unknown): boolean {
  const state = sqlState(error);
  const code = (error as { code?: unknown }).code;
  const kind = adapterCause(error)?.kind;
  return (
    (state !== undefined && CONNECTION_SQLSTATE.test(state)) ||
    (typeof code === "string" && CONNECTION_CODES.has(code)) ||
    (kind !== undefined && CONNECTION_ADAPTER_KINDS.has(kind)) ||
    (error instanceof Error && LOST_CONNECTION_MESSAGE.test(error.message))
  );
}

/** Turns a database rejection caused by the input into a 400-class validation error; anything else stays masked. */
export function clientDataError(error: unknown): DomainError | null {
  const state = sqlState(error);
  const prismaCode = (error as { code?: string }).code;
  if (!(state?.startsWith("22") || (prismaCode && CLIENT_DATA_PRISMA_CODES.has(prismaCode)))) return null;
  const message = (state && MESSAGES[state]) ?? "Invalid value.";
  return new ValidationError({ [WHOLE_INPUT]: [message] }, message);
}

/** A timeout, an exhausted or an unreachable database as an UNAVAILABLE error (503 with Retry-After) instead of a masked 500; else null. */
export function databaseBusyError(error: unknown): GraphQLError | null {
  const state = sqlState(error);
  const prismaCode = (error as { code?: string }).code;
  const message =
    (state && BUSY_SQLSTATES[state]) || (prismaCode && BUSY_PRISMA_CODES[prismaCode]) || (connectionFailed(error) && UNAVAILABLE);
  if (!message) return null;
  return new GraphQLError(message, {
    extensions: { code: ErrorCode.UNAVAILABLE, http: { headers: { "Retry-After": RETRY_AFTER_SECONDS } } },
  });
}

/**
 * SQLSTATE class 23 (integrity constraint violation), and the Prisma codes it arrives as. A constraint is the last
 * guard of a rule the services check first, so a violation means a concurrent request won the race (or input slipped
 * past validation): the answer is the client's 400, never a 500.
 */
const CONSTRAINT_PRISMA_CODES: Record<string, string> = { P2002: "23505", P2003: "23503", P2004: "23514", P2011: "23502", P2014: "23503" };
const CONSTRAINT_MESSAGES: Record<string, string> = {
  "23505": "An object with these values already exists.", // unique_violation
  "23503": "A related object does not exist or is still in use.", // foreign_key_violation
  "23502": "A required value is missing.", // not_null_violation
};

export function constraintViolationError(error: unknown): DomainError | null {
  const prismaCode = (error as { code?: string }).code;
  const state = [sqlState(error), prismaCode && CONSTRAINT_PRISMA_CODES[prismaCode]].find((s) => s?.startsWith("23"));
  if (!state) return null;
  const message = CONSTRAINT_MESSAGES[state] ?? "Invalid value.";
  return new ValidationError({ [WHOLE_INPUT]: [message] }, message);
}

/**
 * P2025: the record an update or delete needed was gone — a concurrent request deleted it between this request's
 * read and its write. To this request it is now an unknown object: 404, as Waldur answers for one.
 */
export function vanishedRecordError(error: unknown): DomainError | null {
  return (error as { code?: string }).code === "P2025" ? notFound() : null;
}

/** The answer a client gets for a database error it can act on (fix its input, or retry later); null for the rest. */
export const databaseErrorForClient = (error: unknown) =>
  clientDataError(error) ?? constraintViolationError(error) ?? vanishedRecordError(error) ?? databaseBusyError(error);
