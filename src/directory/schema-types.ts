import { builder } from "../graphql/builder.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import { OFFERING_STATE_CHOICES, OFFERING_STATE_LABELS, type OfferingStateChoice } from "./offerings-contract.ts";
import { totalCustomersOf } from "./offering-totals.ts";
import { countCustomerUsers } from "./service-organisations.ts";
import { REGISTRATION_METHOD } from "./users-contract.ts";
import { getUser, visibleUserIds } from "./service-users.ts";
import { getCustomer, getProject, visibleCustomerIds, visibleProjectIds } from "./service-organisations.ts";
import { getOfferingComponent, getOfferingPlan } from "./service-node-lookups.ts";
import { getOffering, getServiceProvider, visibleOfferingIds, visibleServiceProviderIds } from "./service-offerings.ts";
import { billingUnit, minimalPrice, planType } from "./service-plans.ts";
import { oecdLabel } from "./oecd-fos-2007.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";
import { showing } from "./schema-shown-through.ts";
import { ifVisible } from "./visibility.ts";
import { customerOnly, dateOnly, OFFERING_COLUMNS, projectOnly, USER_COLUMNS, userColumnOnly, userOnly } from "./schema-visible-fields.ts";

export const UserRef = builder.prismaNode("User", {
  select: USER_COLUMNS,
  ...visibleNode(getUser, { type: "User", visibleAmong: visibleUserIds }),
  fields: (t) => ({
    uuid: t.string({ resolve: (u) => toHex(u.id) }),
    ...restPresentation({ url: t.string({ resolve: (u, _a, ctx) => apiUrl(ctx, "user", u.id) }) }),
    username: t.string({ resolve: (u) => u.username }),
    email: t.string(userOnly((u) => u.email, "email")),
    firstName: t.string(userOnly((u) => u.firstName, "firstName")),
    lastName: t.string(userOnly((u) => u.lastName, "lastName")),
    fullName: t.string(userOnly((u) => `${u.firstName} ${u.lastName}`.trim(), "fullName")),
    isStaff: t.boolean(userOnly((u) => u.isStaff)),
    isSupport: t.boolean(userOnly((u) => u.isSupport)),
    isActive: t.boolean(userOnly((u) => u.isActive)),
    created: t.field({ type: "DateTime", ...userColumnOnly("created", (created) => created) }),
    hasUsablePassword: t.boolean(userColumnOnly("passwordHash", (hash) => hash !== null)),
    registrationMethod: t.string(userOnly(() => REGISTRATION_METHOD)),
    // Waldur profile fields not stored here: empty for everyone, as their filters treat them.
    nativeName: t.string(userOnly(() => "")),
    jobTitle: t.string(userOnly(() => "")),
    phoneNumber: t.string(userOnly(() => "")),
    organization: t.string(userOnly(() => "")),
    description: t.string(userOnly(() => "")),
    civilNumber: t.string({ nullable: true, description: "Not stored here: always null", resolve: () => null }),
    agreementDate: t.field({ type: "DateTime", nullable: true, description: "Not recorded here: always null", resolve: () => null }),
  }),
});

export const CustomerRef = builder.prismaNode("Customer", {
  ...visibleNode(getCustomer, { type: "Customer", visibleAmong: visibleCustomerIds }),
  fields: (t) => ({
    uuid: t.string({ resolve: (c) => toHex(c.id) }),
    name: t.exposeString("name"),
    abbreviation: t.string(customerOnly((c) => c.abbreviation, "abbreviation")),
    email: t.string(customerOnly((c) => c.email)),
    created: t.field({ type: "DateTime", ...customerOnly((c) => c.created) }),
    serviceProvider: t.relation("serviceProvider", { nullable: true }),
    slug: t.string({ nullable: true, resolve: (c) => c.slug }),
    displayName: t.string(customerOnly((c) => c.abbreviation || c.name)),
    accountingStartDate: t.field({ type: "DateTime", ...customerOnly((c) => c.created) }),
    projectsCount: t.int({
      nullable: true,
      select: { _count: { select: { projects: true } } },
      resolve: (c, _a, ctx) => ifVisible(ctx, "customer", c, c._count.projects),
    }),
    usersCount: t.int({
      nullable: true,
      description: "People holding a role on the customer or one of its projects",
      resolve: async (c, _a, ctx) => ifVisible(ctx, "customer", c, await countCustomerUsers(ctx, c.id)),
    }),
    isServiceProvider: t.boolean({
      nullable: true,
      select: { serviceProvider: { select: { id: true } } },
      resolve: (c, _a, ctx) => ifVisible(ctx, "customer", c, c.serviceProvider !== null),
    }),
    ...restPresentation({
      url: t.string({ resolve: (c, _a, ctx) => apiUrl(ctx, "customer", c.id) }),
      serviceProviderUuid: t.string({
        nullable: true,
        select: { serviceProvider: { select: { id: true } } },
        resolve: (c, _a, ctx) => ifVisible(ctx, "customer", c, c.serviceProvider && toHex(c.serviceProvider.id)),
      }),
      serviceProviderUrl: t.string({
        nullable: true,
        select: { serviceProvider: { select: { id: true } } },
        resolve: (c, _a, ctx) => ifVisible(ctx, "customer", c, c.serviceProvider && apiUrl(ctx, "serviceProvider", c.serviceProvider.id)),
      }),
    }),
    // Waldur fields without a counterpart here: empty for every customer, as their filters treat them.
    nativeName: t.string(customerOnly(() => "", "nativeName")),
    contactDetails: t.string(customerOnly(() => "")),
    agreementNumber: t.string(customerOnly(() => "")),
    registrationCode: t.string(customerOnly(() => "")),
    backendId: t.string(customerOnly(() => "")),
    archived: t.boolean(customerOnly(() => false)),
    organizationGroups: t.field({ type: "JSON", ...customerOnly(() => []) }),
  }),
});


export const ProjectRef = builder.prismaNode("Project", {
  ...visibleNode(getProject, { type: "Project", visibleAmong: visibleProjectIds }),
  fields: (t) => ({
    uuid: t.string({ resolve: (p) => toHex(p.id) }),
    name: t.exposeString("name"),
    description: t.string(projectOnly((p) => p.description, "description")),
    created: t.field({ type: "DateTime", ...projectOnly((p) => p.created) }),
    customer: t.relation("customer"),
    slug: t.exposeString("slug"),
    endDate: t.string({
      ...projectOnly((p) => dateOnly(p.endDate), "endDate"),
      description: "YYYY-MM-DD; null without one, or unless the viewer may read the project or the record it was reached from shows it",
    }),
    endDateUpdatedAt: t.field({ type: "DateTime", ...projectOnly((p) => p.endDateUpdatedAt), description: "When the end date last changed; null until it does" }),
    isIndustry: t.boolean(projectOnly((p) => p.isIndustry)),
    oecdFos2007Code: t.string({ ...projectOnly((p) => p.oecdFos2007Code), description: "OECD Fields of Science (2007) code; \"\" or null when unclassified" }),
    resourcesCount: t.int({
      nullable: true,
      description: "Resources of the project that are OK or updating",
      select: { _count: { select: { resources: { where: { state: { in: ["OK", "UPDATING"] } } } } } },
      resolve: (p, _a, ctx) => ifVisible(ctx, "project", p, p._count.resources),
    }),
    ...restPresentation({
      url: t.string({ resolve: (p, _a, ctx) => apiUrl(ctx, "project", p.id) }),
      oecdFos2007Label: t.string({ ...projectOnly((p) => oecdLabel(p.oecdFos2007Code)), description: "The code's field of science; empty when unclassified" }),
      customerUuid: t.string({ resolve: (p) => toHex(p.customerId) }),
      customerUrl: t.string({ resolve: (p, _a, ctx) => apiUrl(ctx, "customer", p.customerId) }),
      customerName: t.string({ select: { customer: { select: { name: true } } }, resolve: (p) => p.customer.name }),
      customerSlug: t.string({
        nullable: true,
        select: { customer: { select: { slug: true } } },
        resolve: (p, _a, ctx) => ifVisible(ctx, "project", p, p.customer.slug),
      }),
      customerAbbreviation: t.string({
        nullable: true,
        select: { customer: { select: { abbreviation: true } } },
        resolve: (p, _a, ctx) => ifVisible(ctx, "project", p, p.customer.abbreviation),
      }),
      customerNativeName: t.string(projectOnly(() => "")),
    }),
    // Waldur fields without a counterpart here: the same for every project, as their filters and orderings treat them.
    backendId: t.string(projectOnly(() => "")),
    isRemoved: t.boolean(projectOnly(() => false)),
    startDate: t.string({ nullable: true, description: "Not recorded here: always null", resolve: () => null }),
  }),
});

export const ServiceProviderRef = builder.prismaNode("ServiceProvider", {
  ...visibleNode(getServiceProvider, { type: "ServiceProvider", visibleAmong: visibleServiceProviderIds }),
  fields: (t) => ({
    uuid: t.string({ resolve: (s) => toHex(s.id) }),
    description: t.exposeString("description"),
    created: t.expose("created", { type: "DateTime" }),
    // Waldur's service provider shows its customer's abbreviation and native name to anyone who may list providers.
    customer: showing(t.relation("customer"), ["abbreviation", "nativeName"]),
    ...restPresentation({
      url: t.string({ resolve: (s, _a, ctx) => apiUrl(ctx, "serviceProvider", s.id) }),
      customerUuid: t.string({ resolve: (s) => toHex(s.customerId) }),
      customerUrl: t.string({ resolve: (s, _a, ctx) => apiUrl(ctx, "customer", s.customerId) }),
      customerName: t.string({ select: { customer: { select: { name: true } } }, resolve: (s) => s.customer.name }),
      customerAbbreviation: t.string({ select: { customer: { select: { abbreviation: true } } }, resolve: (s) => s.customer.abbreviation }),
      customerSlug: t.string({ select: { customer: { select: { slug: true } } }, resolve: (s) => s.customer.slug }),
      customerNativeName: t.string({ description: "Not stored here: always empty", resolve: () => "" }),
    }),
    offeringCount: t.int({
      description: "The customer's Active and Paused offerings",
      select: { customer: { select: { _count: { select: { offerings: { where: { state: { in: ["ACTIVE", "PAUSED"] } } } } } } } },
      resolve: (s) => s.customer._count.offerings,
    }),
    organizationGroups: t.field({ type: "JSON", description: "No organisation groups here: always empty", resolve: () => [] }),
  }),
});

export const OfferingStateEnum = builder.enumType("OfferingState", {
  description: "Waldur's offering states; nothing makes an offering UNAVAILABLE here, but filters accept it",
  values: Object.keys(OFFERING_STATE_CHOICES) as OfferingStateChoice[],
});
export const BillingTypeEnum = builder.enumType("BillingType", { values: ["USAGE", "FIXED", "LIMIT", "ONE"] as const });

builder.prismaNode("OfferingComponent", {
  ...visibleNode(getOfferingComponent),
  fields: (t) => ({
    uuid: t.string({ resolve: (c) => toHex(c.id) }),
    type: t.exposeString("type"),
    name: t.exposeString("name"),
    billingType: t.expose("billingType", { type: BillingTypeEnum }),
    measuredUnit: t.exposeString("measuredUnit"),
    limitPeriod: t.exposeString("limitPeriod", { nullable: true }),
    limitAmount: t.exposeInt("limitAmount", { nullable: true }),
    offering: t.relation("offering"),
    ...restPresentation({
      billingTypeLabel: t.string({ description: "Waldur's value: usage, fixed, limit or one", resolve: (c) => c.billingType.toLowerCase() }),
      offeringUuid: t.string({ resolve: (c) => toHex(c.offeringId) }),
    }),
  }),
});

builder.prismaNode("OfferingPlan", {
  ...visibleNode(getOfferingPlan),
  fields: (t) => ({
    uuid: t.string({ resolve: (p) => toHex(p.id) }),
    name: t.exposeString("name"),
    unitPrice: t.string({ resolve: (p) => p.unitPrice.toFixed(10) }),
    unit: t.exposeString("unit"),
    archived: t.exposeBoolean("archived"),
    resourcesCount: t.relationCount("resources"),
    offering: t.relation("offering"),
    ...restPresentation({
      url: t.string({ resolve: (p, _a, ctx) => apiUrl(ctx, "plan", p.id) }),
      offeringUrl: t.string({ resolve: (p, _a, ctx) => apiUrl(ctx, "offering", p.offeringId) }),
    }),
    billingUnit: t.string({ nullable: true, description: "The unit when it is one of Waldur's billing units, else null", resolve: billingUnit }),
    planType: t.string({ description: 'Waldur\'s plan_type: "fixed" for a priced plan, "" for a free one', resolve: planType }),
    minimalPrice: t.string({ description: "Decimal string: the unit price (the plan's only price)", resolve: minimalPrice }),
    // Waldur plan fields without a counterpart here: the same for every plan.
    isActive: t.boolean({ description: "No maximum amount of plans here: always true", resolve: () => true }),
    initPrice: t.float({ description: "Not priced here: always 0", resolve: () => 0 }),
    switchPrice: t.float({ description: "Not priced here: always 0", resolve: () => 0 }),
    organizationGroups: t.field({ type: "JSON", description: "No organisation groups here: always empty", resolve: () => [] }),
    components: t.field({ type: "JSON", description: "Plan components (per-component price and amount) are not modelled: always []", resolve: () => [] }),
    prices: t.field({ type: "JSON", description: "Component prices by component type: not modelled, always {}", resolve: () => ({}) }),
    futurePrices: t.field({ type: "JSON", description: "Not modelled: always {}", resolve: () => ({}) }),
    quotas: t.field({ type: "JSON", description: "Component amounts by component type: not modelled, always {}", resolve: () => ({}) }),
  }),
});

export const OfferingRef = builder.prismaNode("Offering", {
  select: OFFERING_COLUMNS,
  ...visibleNode(getOffering, { type: "Offering", visibleAmong: visibleOfferingIds }),
  fields: (t) => ({
    uuid: t.string({ resolve: (o) => toHex(o.id) }),
    name: t.string({ resolve: (o) => o.name }),
    type: t.string({ resolve: (o) => o.type }),
    state: t.field({ type: OfferingStateEnum, resolve: (o) => o.state }),
    description: t.exposeString("description"),
    pluginOptions: t.expose("pluginOptions", { type: "JSON" }),
    partitions: t.expose("partitions", { type: "JSON", description: "The backend's partitions, as the site agent reads them" }),
    backendId: t.string({ resolve: (o) => o.backendId }),
    created: t.expose("created", { type: "DateTime" }),
    customer: t.relation("customer"),
    ...restPresentation({
      url: t.string({ resolve: (o, _a, ctx) => apiUrl(ctx, "offering", o.id) }),
      stateLabel: t.string({ resolve: (o) => OFFERING_STATE_LABELS[o.state] }),
      customerUuid: t.string({ resolve: (o) => toHex(o.customerId) }),
      customerUrl: t.string({ resolve: (o, _a, ctx) => apiUrl(ctx, "customer", o.customerId) }),
      customerName: t.string({ select: { customer: { select: { name: true } } }, resolve: (o) => o.customer.name }),
    }),
    components: t.relation("components", { query: { orderBy: { type: "asc" } } }),
    plans: t.relation("plans", { query: { orderBy: { name: "asc" } } }),
    slug: t.string({ resolve: (o) => o.slug }),
    orderCount: t.relationCount("orders"),
    totalCustomers: t.int({
      description: "Customers with a resource of the offering that is OK, updating or terminating",
      resolve: (o, _a, ctx) => totalCustomersOf(ctx, o.id),
    }),
    // As Waldur creates an offering by default (our create cannot change them), and as the filters treat them.
    shared: t.boolean({ description: "Always true: every offering is open to every customer", resolve: () => true }),
    billable: t.boolean({ description: "Always true", resolve: () => true }),
    attributes: t.field({ type: "JSON", description: "Offering attributes are not modelled: always {}", resolve: () => ({}) }),
    totalCost: t.int({ description: "No invoices here: always 0", resolve: () => 0 }),
    totalCostEstimated: t.int({ description: "No invoices here: always 0", resolve: () => 0 }),
  }),
});
