import { COLLECTIONS } from "../collections/rest-paths.ts";
import { fieldError } from "../platform/errors.ts";
import { BILLING_PERIOD_PARTS } from "./contract.ts";
import { bodyField, dateTime, defineBody, flag, items, link, text, withBody } from "../../rest-adapter/body-contract.ts";
import { queryValue } from "../../rest-adapter/input.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { checkedDecimal, DECIMAL, decimalText } from "./rest-decimals.ts";
import { listRoute, retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { componentUsageCollection, componentUserUsageCollection } from "./schema.ts";

const COMPONENT_USAGE_REST_FRAGMENT = restFragment(
  "ComponentUsageRest",
  "ComponentUsage",
  `uuid created description type name measured_unit: measuredUnit usage date recurring
   missing_usage_policy: missingUsagePolicyLabel billing_period: billingPeriod
   resource_uuid: resourceUuid resource_name: resourceName offering_uuid: offeringUuid offering_name: offeringName
   project_uuid: projectUuid project_name: projectName customer_uuid: customerUuid customer_name: customerName`,
);

const COMPONENT_USER_USAGE_REST_FRAGMENT = restFragment(
  "ComponentUserUsageRest",
  "ComponentUserUsage",
  `uuid user: userUrl username component_usage: componentUsageUrl usage measured_unit: measuredUnit description
   backend_id: backendId created modified date: componentUsageDate billing_period: billingPeriod component_type: componentType
   resource_uuid: resourceUuid resource_name: resourceName offering_uuid: offeringUuid offering_name: offeringName
   project_uuid: projectUuid project_name: projectName customer_uuid: customerUuid customer_name: customerName`,
);

const USAGES = `/api/${COLLECTIONS.componentUsage}`;
const USER_USAGES = `/api/${COLLECTIONS.componentUserUsage}`;

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

/** An amount Waldur requires, refusing null as missing; `read` turns the given value into the text the service takes. */
const requiredAmount = (read: (value: unknown, name: string) => string) => bodyField({ required: true, absent: [null] }, DECIMAL, read);

/** The service checks usage amounts itself (reporting them per item under `usages`). */
const USAGE_REPORT = defineBody({
  usages: items(
    {
      type: text({ required: true, description: "The component's type" }),
      amount: requiredAmount(decimalText),
      description: text(),
      recurring: flag(),
    },
    { required: true },
  ),
  resource: text({ as: "resourceUuid", description: "uuid of the resource (or give plan_period)" }),
  plan_period: text({ as: "planPeriodUuid", description: "uuid of the resource's plan period (or give resource)" }),
  date: dateTime(),
});

const USER_USAGE_FIELDS = {
  username: text({ required: true }),
  usage: requiredAmount(checkedDecimal),
  user: link("offeringUser", { as: "offeringUserUuid", absent: [null] }),
  date: dateTime(),
} as const;

const USER_USAGE = defineBody(USER_USAGE_FIELDS);
const USER_USAGE_LIST = defineBody({ usages: items(USER_USAGE_FIELDS, { required: true }) });


const SET_USER_USAGES = `mutation($uuid: ID!, $usages: [UserUsageReportInput!]!) {
  setComponentUserUsages(input: { componentUsageUuid: $uuid, usages: $usages }) { __typename } }`;

const usageRoutes: RouteSpec[] = [
  withBillingPeriodChecks(
    listRoute({ path: `${USAGES}/`, summary: "List component usages (provider and consumer side)", collection: componentUsageCollection }),
  ),
  {
    method: "POST",
    path: `${USAGES}/set_usage/`,
    summary: "Report usage of a resource's components for a month (an upsert per component and month)",
    document: `mutation($resourceUuid: ID, $planPeriodUuid: ID, $usages: [UsageReportInput!]!, $date: DateTime) {
      setComponentUsage(input: { resourceUuid: $resourceUuid, planPeriodUuid: $planPeriodUuid, usages: $usages, date: $date }) { __typename } }`,
    ...withBody(USAGE_REPORT, (input) => input),
    kind: "empty",
    status: 201,
  },
  retrieveRoute(USAGES, "Retrieve a component usage", componentUsageCollection),
  {
    method: "POST",
    path: `${USAGES}/:uuid/set_user_usage/`,
    summary: "Report one user's share of a component usage (an upsert per username)",
    document: SET_USER_USAGES,
    ...withBody(USER_USAGE, (usage, { params }) => ({ uuid: params.uuid, usages: [usage] })),
    kind: "empty",
    status: 201,
  },
  {
    method: "POST",
    path: `${USAGES}/:uuid/set_user_usages/`,
    summary: "Report several users' shares of a component usage at once (all or nothing)",
    document: SET_USER_USAGES,
    ...withBody(USER_USAGE_LIST, (input, { params }) => ({ uuid: params.uuid, ...input })),
    kind: "empty",
    status: 201,
  },
  withBillingPeriodChecks(
    listRoute({
      path: `${USER_USAGES}/`,
      summary: "List component user usages (provider and consumer side)",
      collection: componentUserUsageCollection,
    }),
  ),
  retrieveRoute(USER_USAGES, "Retrieve a component user usage", componentUserUsageCollection),
];

export const usageRest: RestSurface = {
  routes: usageRoutes,
  fragments: [COMPONENT_USAGE_REST_FRAGMENT, COMPONENT_USER_USAGE_REST_FRAGMENT],
};
