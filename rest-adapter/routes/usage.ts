import { COMPONENT_USAGE_ORDER, COMPONENT_USER_USAGE_ORDER, type ComponentUsageOrder, type ComponentUserUsageOrder } from "../../src/usage/filters.ts";
import { amountError } from "../../src/usage/amounts.ts";
import { DomainError, type FieldErrors, fieldError, invalid } from "../../src/platform/errors.ts";
import {
  compact,
  dateTimeParam,
  hyperlink,
  numberParam,
  optionalBoolean,
  optionalDateTime,
  optionalString,
  ordering,
  pythonTypeName,
  queryValue,
  readAll,
  requiredString,
  uuidParam,
} from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { retrieveRoute } from "./common.ts";
import { orderParams } from "./resources.ts";

const USAGES = "/api/marketplace-component-usages";
const USER_USAGES = "/api/marketplace-component-user-usages";
const USAGE_ORDER = orderParams<ComponentUsageOrder>(COMPONENT_USAGE_ORDER);
const USER_USAGE_ORDER = orderParams<ComponentUserUsageOrder>(COMPONENT_USER_USAGE_ORDER);
const RESOURCES = "(?:marketplace-resources|marketplace-provider-resources)";

function usageFilter({ query }: RestRequest, billingPeriodParam: string) {
  const resource = queryValue(query, "resource");
  return compact({
    resourceUuid: uuidParam(query, "resource_uuid") ?? (resource ? hyperlink(resource, "resource", RESOURCES) : undefined),
    offeringUuid: uuidParam(query, "offering_uuid"),
    projectUuid: uuidParam(query, "project_uuid"),
    customerUuid: uuidParam(query, "customer_uuid"),
    type: queryValue(query, "type"),
    billingPeriod: dateTimeParam(query, billingPeriodParam),
    billingPeriodYear: integerParam(query, "billing_period_year", 1, 9999),
    billingPeriodMonth: integerParam(query, "billing_period_month", 1, 12),
    dateAfter: dateTimeParam(query, "date_after"),
    dateBefore: dateTimeParam(query, "date_before"),
    username: queryValue(query, "username"),
  });
}

function integerParam(query: URLSearchParams, name: string, min: number, max: number) {
  const value = numberParam(query, name);
  if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) throw fieldError(name, "Enter a whole number.");
  return value;
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
  {
    method: "GET",
    path: `${USAGES}/`,
    summary: "List component usages (provider and consumer side)",
    document: `query($filter: UsageFilter, $orderBy: [ComponentUsageOrder!], $first: Int, $offset: Int) {
      componentUsages(filter: $filter, orderBy: $orderBy, first: $first, offset: $offset) { totalCount nodes { ...ComponentUsageRest } } }`,
    variables: (request) => compact({ filter: usageFilter(request, "billing_period"), orderBy: ordering(request.query, USAGE_ORDER) }),
    kind: "list",
  },
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
  {
    method: "GET",
    path: `${USER_USAGES}/`,
    summary: "List component user usages (provider and consumer side)",
    document: `query($filter: UsageFilter, $orderBy: [ComponentUserUsageOrder!], $first: Int, $offset: Int) {
      componentUserUsages(filter: $filter, orderBy: $orderBy, first: $first, offset: $offset) { totalCount nodes { ...ComponentUserUsageRest } } }`,
    variables: (request) =>
      compact({ filter: usageFilter(request, "component_usage__billing_period"), orderBy: ordering(request.query, USER_USAGE_ORDER) }),
    kind: "list",
  },
  retrieveRoute(USER_USAGES, "Retrieve a component user usage", "componentUserUsage", "ComponentUserUsageRest"),
];
