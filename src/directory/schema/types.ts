import { builder } from "../../graphql/builder.ts";
import { apiUrl } from "../../graphql/urls.ts";
import { toHex } from "../../platform/ids.ts";
import type { Context } from "../../context.ts";
import type { Customer, Project, User } from "../../generated/prisma/client.ts";
import { OFFERING_STATE_LABELS } from "../offerings.ts";
import { type DirectoryKind, ifVisible } from "../visibility.ts";

/**
 * Customers, projects and users are reached by nesting from objects their viewer may see (an offering's customer, an
 * order's project, an offering user's user). Their uuid, url and name (username) are public there, as the parents'
 * own `customerName`-style fields are; every other field is null unless the viewer could GET the object over REST.
 */
const onlyIfVisible =
  <P extends { id: string }>(kind: DirectoryKind, description: string) =>
  <T>(pick: (parent: P) => T) => ({
    nullable: true as const,
    description,
    resolve: (parent: P, _args: object, ctx: Context) => ifVisible(ctx, kind, parent.id, pick(parent)),
  });
const userOnly = onlyIfVisible<User>("user", "Null unless the viewer may read this user (GET /api/users/<uuid>/)");
const customerOnly = onlyIfVisible<Customer>("customer", "Null unless the viewer may read this customer (GET /api/customers/<uuid>/)");
const projectOnly = onlyIfVisible<Project>("project", "Null unless the viewer may read this project (GET /api/projects/<uuid>/)");

export const UserRef = builder.prismaObject("User", {
  fields: (t) => ({
    uuid: t.string({ resolve: (u) => toHex(u.id) }),
    url: t.string({ resolve: (u, _a, ctx) => apiUrl(ctx, "user", u.id) }),
    username: t.exposeString("username"),
    email: t.string(userOnly((u) => u.email)),
    firstName: t.string(userOnly((u) => u.firstName)),
    lastName: t.string(userOnly((u) => u.lastName)),
    fullName: t.string(userOnly((u) => `${u.firstName} ${u.lastName}`.trim())),
    isStaff: t.boolean(userOnly((u) => u.isStaff)),
    isSupport: t.boolean(userOnly((u) => u.isSupport)),
    isActive: t.boolean(userOnly((u) => u.isActive)),
    created: t.field({ type: "DateTime", ...userOnly((u) => u.created) }),
  }),
});

export const CustomerRef = builder.prismaObject("Customer", {
  fields: (t) => ({
    uuid: t.string({ resolve: (c) => toHex(c.id) }),
    url: t.string({ resolve: (c, _a, ctx) => apiUrl(ctx, "customer", c.id) }),
    name: t.exposeString("name"),
    abbreviation: t.string(customerOnly((c) => c.abbreviation)),
    email: t.string(customerOnly((c) => c.email)),
    created: t.field({ type: "DateTime", ...customerOnly((c) => c.created) }),
    serviceProvider: t.relation("serviceProvider", { nullable: true }),
  }),
});


export const ProjectRef = builder.prismaObject("Project", {
  fields: (t) => ({
    uuid: t.string({ resolve: (p) => toHex(p.id) }),
    url: t.string({ resolve: (p, _a, ctx) => apiUrl(ctx, "project", p.id) }),
    name: t.exposeString("name"),
    description: t.string(projectOnly((p) => p.description)),
    created: t.field({ type: "DateTime", ...projectOnly((p) => p.created) }),
    customer: t.relation("customer"),
    customerUuid: t.string({ resolve: (p) => toHex(p.customerId) }),
    customerUrl: t.string({ resolve: (p, _a, ctx) => apiUrl(ctx, "customer", p.customerId) }),
    customerName: t.string({ select: { customer: { select: { name: true } } }, resolve: (p) => p.customer.name }),
  }),
});

export const ServiceProviderRef = builder.prismaObject("ServiceProvider", {
  fields: (t) => ({
    uuid: t.string({ resolve: (s) => toHex(s.id) }),
    url: t.string({ resolve: (s, _a, ctx) => apiUrl(ctx, "serviceProvider", s.id) }),
    description: t.exposeString("description"),
    created: t.expose("created", { type: "DateTime" }),
    customer: t.relation("customer"),
    customerUuid: t.string({ resolve: (s) => toHex(s.customerId) }),
    customerUrl: t.string({ resolve: (s, _a, ctx) => apiUrl(ctx, "customer", s.customerId) }),
    customerName: t.string({ select: { customer: { select: { name: true } } }, resolve: (s) => s.customer.name }),
  }),
});

export const OfferingStateEnum = builder.enumType("OfferingState", {
  values: Object.keys(OFFERING_STATE_LABELS) as Array<keyof typeof OFFERING_STATE_LABELS>,
});
export const BillingTypeEnum = builder.enumType("BillingType", { values: ["USAGE", "FIXED", "LIMIT", "ONE"] as const });

builder.prismaObject("OfferingComponent", {
  fields: (t) => ({
    uuid: t.string({ resolve: (c) => toHex(c.id) }),
    type: t.exposeString("type"),
    name: t.exposeString("name"),
    billingType: t.expose("billingType", { type: BillingTypeEnum }),
    billingTypeLabel: t.string({ description: "Waldur's value: usage, fixed, limit or one", resolve: (c) => c.billingType.toLowerCase() }),
    measuredUnit: t.exposeString("measuredUnit"),
    limitPeriod: t.exposeString("limitPeriod", { nullable: true }),
    limitAmount: t.exposeInt("limitAmount", { nullable: true }),
  }),
});

builder.prismaObject("OfferingPlan", {
  fields: (t) => ({
    uuid: t.string({ resolve: (p) => toHex(p.id) }),
    name: t.exposeString("name"),
    unitPrice: t.string({ resolve: (p) => p.unitPrice.toFixed(10) }),
    unit: t.exposeString("unit"),
    archived: t.exposeBoolean("archived"),
  }),
});

export const OfferingRef = builder.prismaObject("Offering", {
  fields: (t) => ({
    uuid: t.string({ resolve: (o) => toHex(o.id) }),
    url: t.string({ resolve: (o, _a, ctx) => apiUrl(ctx, "offering", o.id) }),
    name: t.exposeString("name"),
    type: t.exposeString("type"),
    state: t.expose("state", { type: OfferingStateEnum }),
    stateLabel: t.string({ resolve: (o) => OFFERING_STATE_LABELS[o.state] }),
    description: t.exposeString("description"),
    pluginOptions: t.expose("pluginOptions", { type: "JSON" }),
    partitions: t.expose("partitions", { type: "JSON", description: "The backend's partitions, as the site agent reads them" }),
    backendId: t.exposeString("backendId"),
    created: t.expose("created", { type: "DateTime" }),
    customer: t.relation("customer"),
    customerUuid: t.string({ resolve: (o) => toHex(o.customerId) }),
    customerUrl: t.string({ resolve: (o, _a, ctx) => apiUrl(ctx, "customer", o.customerId) }),
    customerName: t.string({ select: { customer: { select: { name: true } } }, resolve: (o) => o.customer.name }),
    components: t.relation("components", { query: { orderBy: { type: "asc" } } }),
    plans: t.relation("plans", { query: { orderBy: { name: "asc" } } }),
  }),
});

export const RoleGrantRef = builder.prismaObject("RoleGrant", {
  fields: (t) => ({
    uuid: t.string({ resolve: (g) => toHex(g.id) }),
    role: t.exposeString("role"),
    scopeType: t.exposeString("scopeType"),
    scopeUuid: t.string({ resolve: (g) => toHex(g.scopeId) }),
    expirationTime: t.expose("expirationTime", { type: "DateTime", nullable: true }),
    isActive: t.exposeBoolean("isActive"),
    created: t.expose("created", { type: "DateTime" }),
    user: t.relation("user"),
  }),
});
