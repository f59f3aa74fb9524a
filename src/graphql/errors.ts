import type { EnumRef } from "@pothos/core";
import {
  AuthenticationError,
  ConflictError,
  type DomainError,
  ErrorCode,
  type FieldErrors,
  InvalidTransitionError,
  NotFoundError,
  PermissionDeniedError,
  type TransitionErrorClass,
  ValidationError,
} from "../platform/errors.ts";
import { builder, type Types } from "./builder.ts";
import { restPresentation } from "./sub-graphs.ts";

const ErrorCodeEnum = builder.enumType("ErrorCode", {
  description: "What kind of failure; the REST adapter maps each to Waldur's status",
  values: Object.values(ErrorCode),
});

const FieldErrorRef = builder.objectRef<{ path: string; message: string }>("FieldError").implement({
  description: "One problem with one argument or input field, named as GraphQL names it (`input` for the input as a whole)",
  fields: (t) => ({ path: t.exposeString("path"), message: t.exposeString("message") }),
});

const fieldList = (fields: FieldErrors) =>
  Object.entries(fields).flatMap(([path, messages]) => messages.map((message) => ({ path, message })));

/** Implemented by every typed failure a mutation can return instead of its result. */
export const ErrorInterface = builder.interfaceRef<DomainError>("Error").implement({
  fields: (t) => ({
    message: t.exposeString("message"),
    code: t.field({ type: ErrorCodeEnum, resolve: (error) => error.code }),
    ...restPresentation({
      restMessage: t.string({ resolve: (error) => error.restMessage ?? error.message }),
      restFields: t.field({ type: [FieldErrorRef], nullable: true, resolve: (error) => (error.fields ? fieldList(error.fields) : null) }),
    }),
  }),
});

const common = { interfaces: [ErrorInterface] };

builder.objectType(NotFoundError, {
  ...common,
  name: "NotFoundError",
  description: "The object does not exist, or the viewer may not see it",
});
builder.objectType(PermissionDeniedError, {
  ...common,
  name: "PermissionDeniedError",
  description: "The viewer may see the object but not do this to it",
});
builder.objectType(ConflictError, {
  ...common,
  name: "ConflictError",
  description: "The request is valid, but the object's present condition rules it out",
});
builder.objectType(ValidationError, {
  ...common,
  name: "ValidationError",
  description: "Arguments or input fields were refused",
  fields: (t) => ({
    fields: t.field({
      type: [FieldErrorRef],
      resolve: (error) => fieldList(error.fields),
    }),
  }),
});
/** Implemented by each state machine's refusal, whose states are that machine's enum. */
export const InvalidTransitionInterface = builder.interfaceRef<InvalidTransitionError>("InvalidTransitionError").implement({
  description: "The object's state does not allow this action now",
  interfaces: [ErrorInterface],
});

/** The typed refusal of one machine's transitions, named `<Machine>TransitionError`, its states as `states`. */
export function transitionFailure<S extends string>(Refusal: TransitionErrorClass<S>, machine: string, states: EnumRef<Types, string, string>) {
  builder.objectType(Refusal, {
    name: `${machine}TransitionError`,
    description: `The ${machine}'s state does not allow this action now`,
    interfaces: [ErrorInterface, InvalidTransitionInterface],
    fields: (t) => ({
      currentState: t.field({ type: states, resolve: (error): string => error.currentState }),
      allowedFrom: t.field({ type: [states], description: "The states the action may start from", resolve: (error): string[] => [...error.allowedFrom] }),
    }),
  });
  return Refusal;
}

builder.objectType(AuthenticationError, {
  ...common,
  name: "AuthenticationError",
  description: "The username and password do not match an active user",
});
