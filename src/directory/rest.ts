import { OECD_FOS_2007_LABELS } from "./oecd-fos-2007.ts";
import { OFFERING_CONTRACT } from "./offerings-contract.ts";
import { COLLECTIONS } from "../collections/rest-paths.ts";
import { choice, defineBody, flag, link, text, withBody } from "../../rest-adapter/body-contract.ts";
import { readFilters, readOrdering } from "../../rest-adapter/collection-query.ts";
import { compact } from "../../rest-adapter/input.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { byId, byUuid, listRoute, retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { OFFERING_CREATE } from "./rest-offering-body.ts";
import { roleRoutes } from "./rest-roles.ts";
import { OFFERING_TRANSITIONS } from "./transitions.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { customerCollection, offeringCollection, projectCollection, serviceProviderCollection, userCollection } from "./schema.ts";
import type { CollectionNames } from "../collections/type-names.ts";

const USER_REST_FRAGMENT = restFragment(
  "UserRest",
  "User",
  `url uuid username email first_name: firstName last_name: lastName full_name: fullName
   is_staff: isStaff is_support: isSupport is_active: isActive date_joined: created
   has_usable_password: hasUsablePassword registration_method: registrationMethod native_name: nativeName
   job_title: jobTitle phone_number: phoneNumber organization description civil_number: civilNumber
   agreement_date: agreementDate`,
);

const CUSTOMER_REST_FRAGMENT = restFragment(
  "CustomerRest",
  "Customer",
  `url uuid name slug abbreviation email created display_name: displayName accounting_start_date: accountingStartDate
   projects_count: projectsCount users_count: usersCount is_service_provider: isServiceProvider
   service_provider: serviceProviderUrl service_provider_uuid: serviceProviderUuid native_name: nativeName
   contact_details: contactDetails agreement_number: agreementNumber registration_code: registrationCode
   backend_id: backendId archived organization_groups: organizationGroups`,
);

const PROJECT_REST_FRAGMENT = restFragment(
  "ProjectRest",
  "Project",
  `url uuid name slug description created end_date: endDate end_date_updated_at: endDateUpdatedAt start_date: startDate
   backend_id: backendId is_removed: isRemoved resources_count: resourcesCount is_industry: isIndustry
   oecd_fos_2007_code: oecdFos2007Code oecd_fos_2007_label: oecdFos2007Label
   customer: customerUrl customer_uuid: customerUuid customer_name: customerName customer_slug: customerSlug
   customer_abbreviation: customerAbbreviation customer_native_name: customerNativeName`,
);

const SERVICE_PROVIDER_REST_FRAGMENT = restFragment(
  "ServiceProviderRest",
  "ServiceProvider",
  `url uuid description created customer: customerUrl customer_uuid: customerUuid customer_name: customerName
   customer_abbreviation: customerAbbreviation customer_slug: customerSlug customer_native_name: customerNativeName
   offering_count: offeringCount organization_groups: organizationGroups`,
);

const OFFERING_REST_FRAGMENT = restFragment(
  "OfferingRest",
  "Offering",
  `url uuid name slug type description state: stateLabel plugin_options: pluginOptions partitions backend_id: backendId created
   customer: customerUrl customer_uuid: customerUuid customer_name: customerName
   shared billable attributes order_count: orderCount total_customers: totalCustomers total_cost: totalCost
   total_cost_estimated: totalCostEstimated
   components { uuid type name billing_type: billingTypeLabel measured_unit: measuredUnit
                limit_period: limitPeriod limit_amount: limitAmount offering_uuid: offeringUuid }
   plans { url uuid name unit_price: unitPrice unit archived resources_count: resourcesCount }`,
);

const USERS = `/api/${COLLECTIONS.user}`;
const CUSTOMERS = `/api/${COLLECTIONS.customer}`;
const PROJECTS = `/api/${COLLECTIONS.project}`;
const SERVICE_PROVIDERS = `/api/${COLLECTIONS.serviceProvider}`;
const OFFERINGS = `/api/${COLLECTIONS.offering}`;

const retrieve = (base: string, noun: string, collection: CollectionNames) =>
  retrieveRoute(base, `Retrieve ${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`, collection);

const PASSWORD_LOGIN = defineBody({ username: text({ required: true, blank: false }), password: text({ required: true, blank: false }) });

const USER_CREATE = defineBody({
  username: text({ required: true }),
  email: text(),
  first_name: text(),
  last_name: text(),
  password: text(),
  is_staff: flag(),
  is_support: flag(),
});

const CUSTOMER_CREATE = defineBody({ name: text({ required: true }), abbreviation: text(), email: text() });

/** Waldur's OECD codes as given and read; "" (BlankEnum) leaves a project unclassified, as null does. */
const OECD_CODES = Object.fromEntries(["", ...Object.keys(OECD_FOS_2007_LABELS)].map((code) => [code, code]));

const PROJECT_CREATE = defineBody({
  customer: link("customer", { required: true, as: "customerUuid" }),
  name: text({ required: true }),
  description: text(),
  is_industry: flag(),
  oecd_fos_2007_code: choice(OECD_CODES, { as: "oecdFos2007Code" }),
});

const SERVICE_PROVIDER_CREATE = defineBody({ customer: link("customer", { required: true, as: "customerUuid" }), description: text() });

const directoryRoutes: RouteSpec[] = [
  {
    method: "POST",
    path: "/api-auth/password/",
    summary: "Obtain an API token with a username and password",
    document: `mutation($username: String!, $password: String!) { obtainToken(input: { username: $username, password: $password }) { token } }`,
    ...withBody(PASSWORD_LOGIN, (input) => input),
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
    path: `${USERS}/me/`,
    summary: "The authenticated user",
    document: `query { me { ...UserRest token_lifetime: tokenLifetime } }`,
    kind: "object",
  },
  listRoute({ path: `${USERS}/`, summary: "List users", collection: userCollection }),
  retrieve(USERS, "user", userCollection),
  {
    method: "POST",
    path: `${USERS}/`,
    summary: "Create a user (staff)",
    document: `mutation($username: String!, $email: String, $firstName: String, $lastName: String, $password: String, $isStaff: Boolean, $isSupport: Boolean) {
      createUser(input: { username: $username, email: $email, firstName: $firstName, lastName: $lastName, password: $password, isStaff: $isStaff, isSupport: $isSupport }) { ...UserRest } }`,
    ...withBody(USER_CREATE, (input) => input),
    kind: "object",
    status: 201,
  },
  listRoute({ path: `${CUSTOMERS}/`, summary: "List customers (organisations)", collection: customerCollection }),
  retrieve(CUSTOMERS, "customer", customerCollection),
  {
    method: "POST",
    path: `${CUSTOMERS}/`,
    summary: "Create a customer (staff)",
    document: `mutation($name: String!, $abbreviation: String, $email: String) { createCustomer(input: { name: $name, abbreviation: $abbreviation, email: $email }) { ...CustomerRest } }`,
    ...withBody(CUSTOMER_CREATE, (input) => input),
    kind: "object",
    status: 201,
  },
  listRoute({ path: `${PROJECTS}/`, summary: "List projects", collection: projectCollection }),
  retrieve(PROJECTS, "project", projectCollection),
  {
    method: "POST",
    path: `${PROJECTS}/`,
    summary: "Create a project in a customer",
    document: `mutation($customerUuid: ID!, $name: String!, $description: String, $isIndustry: Boolean, $oecdFos2007Code: String) {
      createProject(input: { customerUuid: $customerUuid, name: $name, description: $description, isIndustry: $isIndustry,
        oecdFos2007Code: $oecdFos2007Code }) { ...ProjectRest } }`,
    ...withBody(PROJECT_CREATE, (input) => input),
    kind: "object",
    status: 201,
  },
  listRoute({ path: `${SERVICE_PROVIDERS}/`, summary: "List service providers", collection: serviceProviderCollection }),
  retrieve(SERVICE_PROVIDERS, "service provider", serviceProviderCollection),
  {
    method: "POST",
    path: `${SERVICE_PROVIDERS}/`,
    summary: "Register a customer as a service provider",
    document: `mutation($customerUuid: ID!, $description: String) { createServiceProvider(input: { customerUuid: $customerUuid, description: $description }) { ...ServiceProviderRest } }`,
    ...withBody(SERVICE_PROVIDER_CREATE, (input) => input),
    kind: "object",
    status: 201,
  },
  listRoute({ path: `${OFFERINGS}/`, summary: "List offerings", collection: offeringCollection }),
  retrieve(OFFERINGS, "offering", offeringCollection),
  {
    method: "GET",
    path: `${OFFERINGS}/:uuid/user-attribute-config/`,
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
      path: `${OFFERINGS}/:uuid/${action}/`,
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
    path: `${OFFERINGS}/`,
    summary: "Create an offering (Draft)",
    document: `mutation($customerUuid: ID!, $name: String!, $type: String!, $description: String, $pluginOptions: JSON, $partitions: JSON, $backendId: String, $components: [OfferingComponentInput!], $plans: [OfferingPlanInput!]) {
      createOffering(input: { customerUuid: $customerUuid, name: $name, type: $type, description: $description, pluginOptions: $pluginOptions, partitions: $partitions, backendId: $backendId, components: $components, plans: $plans }) { ...OfferingRest } }`,
    ...withBody(OFFERING_CREATE, (input) => input),
    kind: "object",
    status: 201,
  },
  {
    method: "POST",
    path: `${OFFERINGS}/:uuid/activate/`,
    summary: "Activate a Draft or Paused offering",
    document: `mutation($id: ID!) { ${OFFERING_TRANSITIONS.activate.mutation}(input: { id: $id }) { state: stateLabel } }`,
    variables: byId("Offering"),
    kind: "object",
    shape: ({ state }) => ({ detail: "Offering state updated.", state }),
  },
  ...roleRoutes,
];

export const directoryRest: RestSurface = {
  routes: directoryRoutes,
  fragments: [
    USER_REST_FRAGMENT,
    CUSTOMER_REST_FRAGMENT,
    PROJECT_REST_FRAGMENT,
    SERVICE_PROVIDER_REST_FRAGMENT,
    OFFERING_REST_FRAGMENT,
  ],
};
