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

/** Field errors keyed by the GraphQL argument or input field they concern: `{ field: ["message"] }`. */
export type FieldErrors = Record<string, string[]>;

interface ErrorDetails {
  fields?: FieldErrors;
  currentState?: string;
  allowedFrom?: readonly string[];
}

/**
 * A failure a client can act on: an answer, not a fault, so it carries no stack trace. Capturing one, and formatting
 * it when a plugin reads `stack` (through source maps), cost more CPU than the rest of a refused request.
 */
export class DomainError extends GraphQLError {
  readonly code: ErrorCode;
  /** Waldur's wording of the same failure, where it differs from `message` (REST answers with it). */
  restMessage?: string;
  /** What was wrong with which input field: a validation failure's (AuthenticationError's too). */
  readonly fields?: FieldErrors;
  constructor(code: ErrorCode, message: string, extra: ErrorDetails = {}) {
    const frames = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, { extensions: { code, ...extra } });
    Error.stackTraceLimit = frames;
    this.code = code;
    this.fields = extra.fields;
  }
}

/** The failures a client can act on, which GraphQL mutations return as typed results rather than errors. */
export class NotFoundError extends DomainError {
  constructor(message = "Not found.") {
    super(ErrorCode.NOT_FOUND, message);
  }
}

export class PermissionDeniedError extends DomainError {
  constructor(message = "You do not have permission to perform this action.") {
    super(ErrorCode.FORBIDDEN, message);
  }
}

export class ValidationError extends DomainError {
  declare readonly fields: FieldErrors;
  constructor(fields: FieldErrors, message = Object.values(fields).flat()[0] ?? "Invalid input.") {
    super(ErrorCode.VALIDATION, message, { fields });
  }
}

/**
 * A state machine refused: the record is in `currentState`, the action needs one of `allowedFrom`. Each machine has
 * its own subclass (`transitionErrorOf`), which GraphQL shows with its states as an enum.
 */
export abstract class InvalidTransitionError<S extends string = string> extends DomainError {
  readonly currentState: S;
  readonly allowedFrom: readonly S[];
  constructor(message: string, currentState: S, allowedFrom: readonly S[], code: ErrorCode = ErrorCode.INVALID_TRANSITION) {
    super(code, message, { currentState, allowedFrom });
    this.currentState = currentState;
    this.allowedFrom = allowedFrom;
  }
}

/** The refusal class of one state machine's transitions (`OfferingUserState` → its own `InvalidTransitionError`). */
export const transitionErrorOf = <S extends string>() => class extends InvalidTransitionError<S> {};
export type TransitionErrorClass<S extends string> = ReturnType<typeof transitionErrorOf<S>>;

/** Wrong credentials: a failure of its own in GraphQL; to REST, as to Waldur, a refused input. */
export class AuthenticationError extends ValidationError {
  constructor(message: string) {
    super({ [WHOLE_INPUT]: [message] }, message);
  }
}

/** The request is valid but the record's present condition rules it out. */
export class ConflictError extends DomainError {
  constructor(message: string) {
    super(ErrorCode.CONFLICT, message);
  }
}

export const notFound = () => new NotFoundError();
export const forbidden = (message?: string) => new PermissionDeniedError(message);
export const unauthenticated = (message = "Authentication credentials were not provided.") =>
  new DomainError(ErrorCode.UNAUTHENTICATED, message);
export const invalid = (fields: FieldErrors) => new ValidationError(fields);
export const fieldError = (field: string, message: string) => invalid({ [field]: [message] });
export const conflict = (message: string) => new ConflictError(message);
/** Invalid as a whole, in one sentence about no field (REST: 400 `{"detail": message}`). */
export const refused = (message: string) => new ValidationError({}, message);

/** Waldur's refusal of an action from the wrong state (409), typed as the machine's transition error. */
export const wrongState = <S extends string>(Refusal: TransitionErrorClass<S>, message: string, currentState: S, allowedFrom: readonly S[]) =>
  new Refusal(message, currentState, allowedFrom, ErrorCode.CONFLICT);

/** The field name of an error about the input as a whole (several fields together, or none of them in particular). */
export const WHOLE_INPUT = "input";
export const inputError = (message: string) => fieldError(WHOLE_INPUT, message);

/** A reference to an object that does not exist (or that the caller may not see). */
export const MISSING_OBJECT = "Object does not exist.";
export const missingObject = (field: string) => fieldError(field, MISSING_OBJECT);

/** What REST and /graphql answer (413) to a body over MAX_BODY_BYTES. */
export const BODY_TOO_LARGE = { detail: "Request body is too large." };
