import {
  ConflictError,
  type DomainError,
  ErrorCode,
  InvalidTransitionError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from "../platform/errors.ts";
import { builder } from "./builder.ts";

const ErrorCodeEnum = builder.enumType("ErrorCode", {
  description: "What kind of failure; the REST adapter maps each to Waldur's status",
  values: Object.values(ErrorCode),
});

/** Implemented by every typed failure a mutation can return instead of its result. */
export const ErrorInterface = builder.interfaceRef<DomainError>("Error").implement({
  fields: (t) => ({
    message: t.exposeString("message"),
    code: t.field({ type: ErrorCodeEnum, resolve: (error) => error.code }),
  }),
});

const FieldErrorRef = builder.objectRef<{ path: string; message: string }>("FieldError").implement({
  description: "One problem with one argument or input field, named as GraphQL names it (`input` for the input as a whole)",
  fields: (t) => ({ path: t.exposeString("path"), message: t.exposeString("message") }),
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
      resolve: (error) => Object.entries(error.fields).flatMap(([path, messages]) => messages.map((message) => ({ path, message }))),
    }),
  }),
});
builder.objectType(InvalidTransitionError, {
  ...common,
  name: "InvalidTransitionError",
  description: "The object's state does not allow this action now",
  fields: (t) => ({
    currentState: t.exposeString("currentState"),
    allowedFrom: t.exposeStringList("allowedFrom", { description: "The states the action may start from" }),
  }),
});
