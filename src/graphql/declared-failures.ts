import { getOperationAST, type GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { DomainError, ErrorCode } from "../platform/errors.ts";

/** The codes a mutation's result union is meant to carry as typed failures (the others belong in `errors[]`). */
const TYPED_CODES: ReadonlySet<string> = new Set([ErrorCode.NOT_FOUND, ErrorCode.FORBIDDEN, ErrorCode.VALIDATION, ErrorCode.INVALID_TRANSITION, ErrorCode.CONFLICT]);

const undeclared = (error: GraphQLError) =>
  error.path?.length === 1 && error.originalError instanceof DomainError && TYPED_CODES.has(error.originalError.code);

/**
 * GRAPHQL_STRICT_FAILURES (on in the tests): a typed failure that a mutation's union does not list, and that therefore
 * went to `errors[]`, fails the request as an internal error naming the mutation and the failure, so that a union
 * narrower than what its mutation can produce shows up in the test that produced it.
 */
export const useDeclaredFailures = (): Plugin => ({
  onExecute({ args }) {
    if (getOperationAST(args.document, args.operationName)?.operation !== "mutation") return;
    return {
      onExecuteDone({ result }) {
        if (!("errors" in result)) return;
        const found = result.errors?.find(undeclared);
        if (!found) return;
        const problem = `${found.path?.[0]} returned ${found.originalError?.constructor.name} (${found.message}), which its result union does not list`;
        console.error(`GRAPHQL_STRICT_FAILURES: ${problem}`);
        throw new Error(problem);
      },
    };
  },
});
