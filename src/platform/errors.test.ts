import { expect, it } from "vitest";
import { DomainError, ErrorCode, transitionErrorOf, ValidationError } from "./errors.ts";

it("a domain error is an answer: no stack frames captured, and the process's own limit is left as it was", () => {
  const limit = Error.stackTraceLimit;
  const errors = [
    new (transitionErrorOf<string>())("Cannot transition.", "OK", ["CREATION_REQUESTED"]),
    new ValidationError({ username: ["This field is required."] }),
    new DomainError(ErrorCode.CONFLICT, "Already there."),
  ];
  for (const error of errors) {
    expect(error.stack).not.toMatch(/\n\s+at /);
    expect(error.message).not.toBe("");
  }
  expect(Error.stackTraceLimit).toBe(limit);
  expect(new Error("a fault").stack).toMatch(/\n\s+at /);
});
