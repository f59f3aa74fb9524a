import { amountError } from "../../src/usage/amounts.ts";
import { BILLING_PERIOD_PARTS, COMPONENT_USAGE_CONTRACT, COMPONENT_USER_USAGE_CONTRACT } from "../../src/usage/contract.ts";
import { DomainError, type FieldErrors, fieldError, invalid } from "../../src/platform/errors.ts";
import {
  compact,
  hyperlink,
  optionalBoolean,
  optionalDateTime,
  optionalString,
  pythonTypeName,
  queryValue,
  readAll,
  requiredString,
} from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { listRoute, retrieveRoute } from "./common.ts";

const USAGES = "/api/marketplace-component-usages";
const USER_USAGES = "/api/marketplace-component-user-usages";

/** A year or month out of range answers with the REST parameter's name, before the list runs. */
function withBillingPeriodChecks(route: RouteSpec): RouteSpec {
  return {
    ...route,
    variables: (request) => {
      for (const { rest, min, max } of BILLING_PERIOD_PARTS) {
        const value = Number(queryValue(request.query, rest) ?? min);
        if (Number.isInteger(value) && (value < min || value > max)) throw fieldError(rest, "Enter a whole number.");
      }
      return route.variables?.(request) ?? {};
    },
  };
}

/** An amount as the service takes it: numbers and numeric strings, anything else left to fail as "not a number". */
const amountText = (value: unknown) => (typeof value === "number" || typeof value === "string" ? String(value) : "");

/** A list of objects under `field`, each read by `read`; problems are reported per item, as "Item n: …". */
function items<T>(body: Record<string, unknown>, field: string, read: (item: Record<string, unknown>) => T): T[] {
  const value = body[field];
  if (value === undefined) throw fieldError(field, "This field is required.");
  if (!Array.isArray(value)) throw fieldError(field, `Expected a list of items but got type "${pythonTypeName(value)}".`);
  const problems: string[] = [];
  const parsed = value.map((item, i) => {
    try {
      if (!item || typeof item !== "object" || Array.isArray(item)) throw fieldError("non_field_errors", `Invalid data. Expected a dictionary, but got ${pythonTypeName(item)}.`);
      return read(item as Record<string, unknown>);
    } catch (error) {
      const fields = error instanceof DomainError ? (error.extensions.fields as FieldErrors | undefined) : undefined;
      if (!fields) throw error;
      problems.push(...Object.entries(fields).map(([name, messages]) => `Item ${i + 1}: ${name}: ${messages.join(" ")}`));
      return undefined as never;
    }
  });
  if (problems.length) throw invalid({ [field]: problems });
  return parsed;
}

const required = (item: Record<string, unknown>, field: string) => {
  if (item[field] === undefined || item[field] === null) throw fieldError(field, "This field is required.");
  return item[field];
};

function setUsageVariables({ body }: RestRequest) {
  return readAll({
    usages: () =>
      items(body, "usages", (item) =>
        readAll({
          type: () => requiredString(item, "type"),
          amount: () => amountText(required(item, "amount")),
          description: () => optionalString(item, "description"),
          recurring: () => optionalBoolean(item, "recurring"),
        }),
      ).map((usage) => compact(usage)),
    resource: () => optionalString(body, "resource"),
    planPeriod: () => optionalString(body, "plan_period"),
    date: () => optionalDateTime(body, "date"),
  });
}

function userUsage(item: Record<string, unknown>) {
  return compact(
    readAll({
      username: () => requiredString(item, "username"),
      usage: () => {
        const usage = amountText(required(item, "usage"));
        const problem = amountError(usage);
        if (problem) throw fieldError("usage", problem);
        return usage;
      },
      offeringUserUuid: () =>
        item.user === undefined || item.user === null ? undefined : hyperlink(item.user, "user", "marketplace-offering-users"),
      date: () => optionalDateTime(item, "date"),
    }),
  );
}

const SET_USER_USAGES = `mutation($uuid: ID!, $usages: [UserUsageReportInput!]!) { setComponentUserUsages(componentUsageUuid: $uuid, usages: $usages) }`;

export const usageRoutes: RouteSpec[] = [
  withBillingPeriodChecks(
    listRoute({
      path: `${USAGES}/`,
      summary: "List component usages (provider and consumer side)",
      field: "componentUsages",
      type: "ComponentUsage",
      fragment: "ComponentUsageRest",
      contract: COMPONENT_USAGE_CONTRACT,
    }),
  ),
  {
    method: "POST",
    path: `${USAGES}/set_usage/`,
    summary: "Report usage of a resource's components for a month (an upsert per component and month)",
    document: `mutation($resource: ID, $planPeriod: ID, $usages: [UsageReportInput!]!, $date: DateTime) {
      setComponentUsage(resourceUuid: $resource, planPeriodUuid: $planPeriod, usages: $usages, date: $date) }`,
    variables: (request) => compact(setUsageVariables(request)),
    kind: "empty",
    status: 201,
  },
  retrieveRoute(USAGES, "Retrieve a component usage", "componentUsage", "ComponentUsageRest"),
  {
    method: "POST",
    path: `${USAGES}/:uuid/set_user_usage/`,
    summary: "Report one user's share of a component usage (an upsert per username)",
    document: SET_USER_USAGES,
    variables: ({ params, body }) => ({ uuid: params.uuid, usages: [userUsage(body)] }),
    kind: "empty",
    status: 201,
  },
  {
    method: "POST",
    path: `${USAGES}/:uuid/set_user_usages/`,
    summary: "Report several users' shares of a component usage at once (all or nothing)",
    document: SET_USER_USAGES,
    variables: ({ params, body }) => ({ uuid: params.uuid, usages: items(body, "usages", userUsage) }),
    kind: "empty",
    status: 201,
  },
  withBillingPeriodChecks(
    listRoute({
      path: `${USER_USAGES}/`,
      summary: "List component user usages (provider and consumer side)",
      field: "componentUserUsages",
      type: "ComponentUserUsage",
      fragment: "ComponentUserUsageRest",
      contract: COMPONENT_USER_USAGE_CONTRACT,
    }),
  ),
  retrieveRoute(USER_USAGES, "Retrieve a component user usage", "componentUserUsage", "ComponentUserUsageRest"),
];
