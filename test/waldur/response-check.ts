import { type OperationSpec, responseProblems, WALDUR } from "./py-client-models.ts";

/**
 * Every successful REST answer a test receives is checked against the py-client model of its operation, so the whole
 * suite (thousands of calls, writes included) proves Waldur's client parses what it is given.
 */

/**
 * Where we knowingly answer other than py-client's declared type (README, "Compatibility notes"): usages are decimals
 * with up to two places (waldur-api.md, usage reporting), which py-client's `int` annotation reads unchanged.
 */
const TOLERATED: Array<[RegExp, string]> = [[/^Component(User)?Usage#\d+\.usage: [\d.]+ is not int$/, "fractional usage"]];

const tolerated = (problem: string) => TOLERATED.some(([pattern]) => pattern.test(problem));

interface Template {
  method: string;
  pattern: RegExp;
  operation: OperationSpec;
}

const TEMPLATES: Template[] = WALDUR.operations
  .filter((operation) => operation.response?.model)
  .map((operation) => ({
    method: operation.method,
    pattern: new RegExp(`^${operation.served.replace(/:\w+/g, "[^/]+")}?$`),
    operation,
  }));

/** The py-client problems of a response, or none where no model applies (errors, no content, other paths, `field=` selections). */
export function waldurResponseProblems(method: string, url: URL, status: number, body: unknown): string[] {
  if (status < 200 || status >= 300 || status === 204 || url.searchParams.has("field")) return [];
  const template = TEMPLATES.find((t) => t.method === method && t.pattern.test(url.pathname));
  if (!template) return [];
  return responseProblems(template.operation, body)
    .filter((problem) => !tolerated(problem))
    .map((problem) => `${template.operation.operation}: ${problem}`);
}
