import { GraphQLError } from "graphql";

/** Every failure a domain service can report. The REST adapter maps these codes to Waldur's statuses. */
export const ErrorCode = {
  UNAUTHENTICATED: "UNAUTHENTICATED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  VALIDATION: "VALIDATION",
  INVALID_TRANSITION: "INVALID_TRANSITION",
  CONFLICT: "CONFLICT",
  METHOD_NOT_ALLOWED: "METHOD_NOT_ALLOWED",
  RATE_LIMITED: "RATE_LIMITED",
  /** The database is too busy or too slow right now; the same request may succeed later. */
  UNAVAILABLE: "UNAVAILABLE",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Field errors in Waldur's shape: `{ field: ["message"] }`. */
export type FieldErrors = Record<string, string[]>;

export class DomainError extends GraphQLError {
  constructor(code: ErrorCode, message: string, extra: { fields?: FieldErrors; currentState?: string } = {}) {
    super(message, { extensions: { code, ...extra } });
  }
}

export const notFound = () => new DomainError(ErrorCode.NOT_FOUND, "Not found.");
export const forbidden = (message = "You do not have permission to perform this action.") =>
  new DomainError(ErrorCode.FORBIDDEN, message);
export const unauthenticated = (message = "Authentication credentials were not provided.") =>
  new DomainError(ErrorCode.UNAUTHENTICATED, message);
export const invalid = (fields: FieldErrors) =>
  new DomainError(ErrorCode.VALIDATION, Object.values(fields).flat()[0] ?? "Invalid input.", { fields });
export const fieldError = (field: string, message: string) => invalid({ [field]: [message] });

/** The field name of an error about the input as a whole (several fields together, or none of them in particular). */
export const WHOLE_INPUT = "input";
export const inputError = (message: string) => fieldError(WHOLE_INPUT, message);

/** A reference to an object that does not exist (or that the caller may not see). */
export const MISSING_OBJECT = "Object does not exist.";
export const missingObject = (field: string) => fieldError(field, MISSING_OBJECT);
