import { CUSTOMER_CONTRACT } from "../../src/directory/customers-contract.ts";
import { OFFERING_CONTRACT } from "../../src/directory/offerings-contract.ts";
import { PROJECT_CONTRACT } from "../../src/directory/projects-contract.ts";
import { SERVICE_PROVIDER_CONTRACT } from "../../src/directory/service-providers-contract.ts";
import { USER_CONTRACT } from "../../src/directory/users-contract.ts";
import { fieldError } from "../../src/platform/errors.ts";
import {
  compact,
  hyperlink,
  nonBlankString,
  optionalBoolean,
  optionalString,
  readAll,
  requiredString,
} from "../input.ts";
import { readFilters, readOrdering } from "../collection-query.ts";
import type { RouteSpec } from "../route.ts";
import { byUuid, listRoute, retrieveRoute } from "./common.ts";
import { roleRoutes } from "./roles.ts";

const retrieve = (base: string, noun: string, field: string, fragment: string) =>
  retrieveRoute(base, `Retrieve ${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`, field, fragment);

const BILLING_TYPES = ["usage", "fixed", "limit", "one"];
/** Waldur's choices, which its clients parse the offering with. */
const LIMIT_PERIODS = ["annual", "month", "quarterly", "total"];
const PLAN_UNITS = ["day", "half_month", "hour", "month", "quantity", "quarter"];

function components(value: unknown) {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return invalidComponents("Expected a list of items.");
  return value.map((item) => {
    if (!item || typeof item !== "object") return invalidComponents("Expected a dictionary of items.");
    const c = item as Record<string, unknown>;
    if (typeof c.type !== "string" || typeof (c.name ?? c.type) !== "string") return invalidComponents("type and name are required strings.");
    if (!BILLING_TYPES.includes(String(c.billing_type))) {
      return invalidComponents(`billing_type must be one of ${BILLING_TYPES.join(", ")}.`);
    }
    const limitAmount = c.limit_amount ?? null;
    if (limitAmount !== null && !Number.isInteger(limitAmount)) return invalidComponents("limit_amount must be an integer.");
    if (c.limit_period != null && !LIMIT_PERIODS.includes(String(c.limit_period))) {
      return invalidComponents(`limit_period must be one of ${LIMIT_PERIODS.join(", ")}.`);
    }
    return {
      type: c.type,
      name: (c.name ?? c.type) as string,
      billingType: String(c.billing_type).toUpperCase(),
      measuredUnit: typeof c.measured_unit === "string" ? c.measured_unit : undefined,
      limitPeriod: typeof c.limit_period === "string" ? c.limit_period : undefined,
      limitAmount,
    };
  });
}

function invalidComponents(message: string): never {
  throw fieldError("components", message);
}

function plans(value: unknown) {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((p) => !p || typeof p !== "object" || typeof p.name !== "string")) {
    throw fieldError("plans", "Each plan needs a name.");
  }
  if (value.some((p) => p.unit != null && !PLAN_UNITS.includes(String(p.unit)))) throw fieldError("plans", `unit must be one of ${PLAN_UNITS.join(", ")}.`);
  return value.map((p: Record<string, unknown>) => compact({ name: p.name as string, unitPrice: p.unit_price == null ? undefined : String(p.unit_price), unit: optionalString(p, "unit") ?? undefined }));
}

export const directoryRoutes: RouteSpec[] = [
  {
    method: "POST",
    path: "/api-auth/password/",
    summary: "Obtain an API token with a username and password",
    document: `mutation($username: String!, $password: String!) { obtainToken(username: $username, password: $password) { token } }`,
    variables: ({ body }) =>
      readAll({ username: () => nonBlankString(body, "username"), password: () => nonBlankString(body, "password") }),
    kind: "object",
    public: true,
  },
  {
    method: "GET",
    path: "/api/version/",
    summary: "The gateway's version",
    document: `query { version }`,
    kind: "object",
    shape: (version) => ({ version }),
    public: true,
  },
  {
    method: "GET",
    path: "/api/users/me/",
    summary: "The authenticated user",
    document: `query { me { ...UserRest token_lifetime: tokenLifetime } }`,
    kind: "object",
  },
  listRoute({ path: "/api/users/", summary: "List users", field: "users", type: "User", fragment: "UserRest", contract: USER_CONTRACT }),
  retrieve("/api/users", "user", "user", "UserRest"),
  {
    method: "POST",
    path: "/api/users/",
    summary: "Create a user (staff)",
    document: `mutation($username: String!, $email: String, $firstName: String, $lastName: String, $password: String, $isStaff: Boolean, $isSupport: Boolean) {
      createUser(username: $username, email: $email, firstName: $firstName, lastName: $lastName, password: $password, isStaff: $isStaff, isSupport: $isSupport) { ...UserRest } }`,
    variables: ({ body }) =>
      compact({
        username: requiredString(body, "username"),
        email: optionalString(body, "email"),
        firstName: optionalString(body, "first_name"),
        lastName: optionalString(body, "last_name"),
        password: optionalString(body, "password"),
        isStaff: optionalBoolean(body, "is_staff"),
        isSupport: optionalBoolean(body, "is_support"),
      }),
    kind: "object",
    status: 201,
  },
  listRoute({
    path: "/api/customers/",
    summary: "List customers (organisations)",
    field: "customers",
    type: "Customer",
    fragment: "CustomerRest",
    contract: CUSTOMER_CONTRACT,
  }),
  retrieve("/api/customers", "customer", "customer", "CustomerRest"),
  {
    method: "POST",
    path: "/api/customers/",
    summary: "Create a customer (staff)",
    document: `mutation($name: String!, $abbreviation: String, $email: String) { createCustomer(name: $name, abbreviation: $abbreviation, email: $email) { ...CustomerRest } }`,
    variables: ({ body }) =>
      compact({ name: requiredString(body, "name"), abbreviation: optionalString(body, "abbreviation"), email: optionalString(body, "email") }),
    kind: "object",
    status: 201,
  },
  listRoute({ path: "/api/projects/", summary: "List projects", field: "projects", type: "Project", fragment: "ProjectRest", contract: PROJECT_CONTRACT }),
  retrieve("/api/projects", "project", "project", "ProjectRest"),
  {
    method: "POST",
    path: "/api/projects/",
    summary: "Create a project in a customer",
    document: `mutation($customerUuid: ID!, $name: String!, $description: String) { createProject(customerUuid: $customerUuid, name: $name, description: $description) { ...ProjectRest } }`,
    variables: ({ body }) =>
      compact({
        customerUuid: hyperlink(body.customer, "customer", "customers"),
        name: requiredString(body, "name"),
        description: optionalString(body, "description"),
      }),
    kind: "object",
    status: 201,
  },
  listRoute({
    path: "/api/marketplace-service-providers/",
    summary: "List service providers",
    field: "serviceProviders",
    type: "ServiceProvider",
    fragment: "ServiceProviderRest",
    contract: SERVICE_PROVIDER_CONTRACT,
  }),
  retrieve("/api/marketplace-service-providers", "service provider", "serviceProvider", "ServiceProviderRest"),
  {
    method: "POST",
    path: "/api/marketplace-service-providers/",
    summary: "Register a customer as a service provider",
    document: `mutation($customerUuid: ID!, $description: String) { createServiceProvider(customerUuid: $customerUuid, description: $description) { ...ServiceProviderRest } }`,
    variables: ({ body }) =>
      compact({ customerUuid: hyperlink(body.customer, "customer", "customers"), description: optionalString(body, "description") }),
    kind: "object",
    status: 201,
  },
  listRoute({
    path: "/api/marketplace-provider-offerings/",
    summary: "List offerings",
    field: "offerings",
    type: "Offering",
    fragment: "OfferingRest",
    contract: OFFERING_CONTRACT,
  }),
  retrieve("/api/marketplace-provider-offerings", "offering", "offering", "OfferingRest"),
  {
    method: "GET",
    path: "/api/marketplace-provider-offerings/:uuid/user-attribute-config/",
    summary: "Which user attributes the provider receives (always the default here)",
    document: `query($uuid: ID!) { offeringUserAttributeConfig(offeringUuid: $uuid) {
      uuid offering_uuid: offeringUuid offering_name: offeringName exposed_fields: exposedFields exposeSwitches
      is_default: isDefault created modified } }`,
    variables: byUuid,
    kind: "object",
    shape: ({ exposeSwitches, ...config }) => ({ ...config, ...exposeSwitches }),
  },
  ...(["list_project_service_accounts", "list_course_accounts"] as const).map(
    (action): RouteSpec => ({
      method: "GET",
      path: `/api/marketplace-provider-offerings/:uuid/${action}/`,
      summary: `${action === "list_course_accounts" ? "Course" : "Project service"} accounts of the offering's projects (not modelled: empty)`,
      // As in Waldur, the offering filters apply to the offering itself: one they leave out is a 404.
      document: `query($uuid: ID!, $filter: OfferingFilter, $first: Int, $offset: Int) {
        offeringAccounts(offeringUuid: $uuid, kind: ${action === "list_course_accounts" ? "COURSE" : "PROJECT_SERVICE"}, first: $first, offset: $offset) {
          totalCount nodes { uuid username state project_uuid: projectUuid } }
        offering(uuid: $uuid, filter: $filter) { uuid } }`,
      variables: ({ params, query }) => {
        readOrdering(OFFERING_CONTRACT, query);
        return compact({ uuid: params.uuid, filter: readFilters(OFFERING_CONTRACT, query) });
      },
      kind: "list",
      contract: OFFERING_CONTRACT,
    }),
  ),
  {
    method: "POST",
    path: "/api/marketplace-provider-offerings/",
    summary: "Create an offering (Draft)",
    document: `mutation($customerUuid: ID!, $name: String!, $type: String!, $description: String, $pluginOptions: JSON, $partitions: JSON, $backendId: String, $components: [OfferingComponentInput!], $plans: [OfferingPlanInput!]) {
      createOffering(customerUuid: $customerUuid, name: $name, type: $type, description: $description, pluginOptions: $pluginOptions, partitions: $partitions, backendId: $backendId, components: $components, plans: $plans) { ...OfferingRest } }`,
    variables: ({ body }) =>
      compact({
        customerUuid: hyperlink(body.customer, "customer", "customers"),
        name: requiredString(body, "name"),
        type: requiredString(body, "type"),
        description: optionalString(body, "description"),
        pluginOptions: body.plugin_options,
        partitions: body.partitions,
        backendId: optionalString(body, "backend_id"),
        components: components(body.components),
        plans: plans(body.plans),
      }),
    kind: "object",
    status: 201,
  },
  {
    method: "POST",
    path: "/api/marketplace-provider-offerings/:uuid/activate/",
    summary: "Activate a Draft or Paused offering",
    document: `mutation($uuid: ID!) { activateOffering(uuid: $uuid) { state: stateLabel } }`,
    variables: byUuid,
    kind: "object",
    shape: ({ state }) => ({ detail: "Offering state updated.", state }),
  },
  ...roleRoutes,
];
