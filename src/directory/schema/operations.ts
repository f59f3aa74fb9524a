import { builder } from "../../graphql/builder.ts";
import { collectionInputs } from "../../graphql/collection-inputs.ts";
import { connectionType, nodesQuery, pageArgs, toPage, relayConnection } from "../../graphql/pagination.ts";
import { ROLES } from "../../auth/permissions.ts";
import * as offerings from "../offerings.ts";
import * as organisations from "../organisations.ts";
import { grantRole, revokeRole } from "../roles.ts";
import * as users from "../users.ts";
import { CUSTOMER_CONTRACT } from "../customers-contract.ts";
import { SERVICE_PROVIDER_CONTRACT } from "../service-providers-contract.ts";
import { USER_CONTRACT } from "../users-contract.ts";
import { OFFERING_CONTRACT } from "../offerings-contract.ts";
import { PROJECT_CONTRACT } from "../projects-contract.ts";
import { BillingTypeEnum, CustomerRef, OfferingRef, OfferingStateEnum, ProjectRef, RoleGrantRef, ServiceProviderRef, UserRef } from "./types.ts";

const UserConnection = connectionType("User", UserRef);
const CustomerConnection = connectionType("Customer", CustomerRef);
const ProjectConnection = connectionType("Project", ProjectRef);
const ServiceProviderConnection = connectionType("ServiceProvider", ServiceProviderRef);
const { Filter: UserFilterInput, Order: UserOrderEnum } = collectionInputs("User", USER_CONTRACT);
const { Filter: CustomerFilterInput, Order: CustomerOrderEnum } = collectionInputs("Customer", CUSTOMER_CONTRACT);
const { Filter: ServiceProviderFilterInput, Order: ServiceProviderOrderEnum } = collectionInputs("ServiceProvider", SERVICE_PROVIDER_CONTRACT);
const OfferingConnection = connectionType("Offering", OfferingRef);

const { Filter: ProjectFilterInput, Order: ProjectOrderEnum } = collectionInputs("Project", PROJECT_CONTRACT);
const { Filter: OfferingFilterInput, Order: OfferingOrderEnum } = collectionInputs("Offering", OFFERING_CONTRACT, {
  OfferingState: OfferingStateEnum,
});

builder.queryFields((t) => ({
  me: t.prismaField({ type: "User", resolve: (query, _r, _a, ctx) => users.getMe(ctx, query) }),
  users: t.field({
    type: UserConnection,
    args: { filter: t.arg({ type: UserFilterInput }), orderBy: t.arg({ type: [UserOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      relayConnection(users.listUsers(ctx, { filter: args.filter, orderBy: args.orderBy, page: toPage(args) }, nodesQuery(ctx, info, "User"))),
  }),
  user: t.prismaField({
    type: "User",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => users.getUser(ctx, String(args.uuid), query),
  }),
  customers: t.field({
    type: CustomerConnection,
    args: { filter: t.arg({ type: CustomerFilterInput }), orderBy: t.arg({ type: [CustomerOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      relayConnection(organisations.listCustomers(ctx, { filter: args.filter, orderBy: args.orderBy, page: toPage(args) }, nodesQuery(ctx, info, "Customer"))),
  }),
  customer: t.prismaField({
    type: "Customer",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => organisations.getCustomer(ctx, String(args.uuid), query),
  }),
  projects: t.field({
    type: ProjectConnection,
    args: { filter: t.arg({ type: ProjectFilterInput }), orderBy: t.arg({ type: [ProjectOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      relayConnection(organisations.listProjects(ctx, { filter: args.filter, orderBy: args.orderBy, page: toPage(args) }, nodesQuery(ctx, info, "Project"))),
  }),
  project: t.prismaField({
    type: "Project",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => organisations.getProject(ctx, String(args.uuid), query),
  }),
  serviceProviders: t.field({
    type: ServiceProviderConnection,
    args: { filter: t.arg({ type: ServiceProviderFilterInput }), orderBy: t.arg({ type: [ServiceProviderOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      relayConnection(organisations.listServiceProviders(
        ctx,
        { filter: args.filter, orderBy: args.orderBy, page: toPage(args) },
        nodesQuery(ctx, info, "ServiceProvider"),
      )),
  }),
  serviceProvider: t.prismaField({
    type: "ServiceProvider",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => offerings.getServiceProvider(ctx, String(args.uuid), query),
  }),
  offerings: t.field({
    type: OfferingConnection,
    args: { filter: t.arg({ type: OfferingFilterInput }), orderBy: t.arg({ type: [OfferingOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      relayConnection(offerings.listOfferings(ctx, { filter: args.filter, orderBy: args.orderBy, page: toPage(args) }, nodesQuery(ctx, info, "Offering"))),
  }),
  offering: t.prismaField({
    type: "Offering",
    description: "With `filter`, found only if it passes those filters too (as Waldur's offering actions filter it)",
    args: { uuid: t.arg.id({ required: true }), filter: t.arg({ type: OfferingFilterInput }) },
    resolve: (query, _r, args, ctx) => offerings.getOffering(ctx, String(args.uuid), query, args.filter),
  }),
}));

const ComponentInput = builder.inputType("OfferingComponentInput", {
  fields: (t) => ({
    type: t.string({ required: true }),
    name: t.string({ required: true }),
    billingType: t.field({ type: BillingTypeEnum, required: true }),
    measuredUnit: t.string(),
    limitPeriod: t.string(),
    limitAmount: t.int(),
  }),
});
const PlanInput = builder.inputType("OfferingPlanInput", {
  fields: (t) => ({ name: t.string({ required: true }), unitPrice: t.string(), unit: t.string() }),
});
const RoleScopeEnum = builder.enumType("RoleScope", { values: ["CUSTOMER", "PROJECT", "OFFERING"] as const });
const RoleArgs = builder.inputType("RoleInput", {
  fields: (t) => ({
    scopeType: t.field({ type: RoleScopeEnum, required: true }),
    scopeUuid: t.id({ required: true }),
    userUuid: t.id({ required: true }),
    role: t.string({ required: true, description: `One of ${ROLES.join(", ")}` }),
    expirationTime: t.field({ type: "DateTime" }),
  }),
});
const TokenRef = builder.objectRef<{ token: string }>("AuthToken").implement({
  fields: (t) => ({ token: t.exposeString("token") }),
});

builder.mutationFields((t) => ({
  obtainToken: t.field({
    type: TokenRef,
    description: "Exchange a username and password for a new API token",
    args: { username: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => ({ token: await users.obtainToken(ctx, args.username, args.password) }),
  }),
  createUser: t.prismaField({
    type: "User",
    args: {
      username: t.arg.string({ required: true }),
      email: t.arg.string(),
      firstName: t.arg.string(),
      lastName: t.arg.string(),
      password: t.arg.string(),
      isStaff: t.arg.boolean(),
      isSupport: t.arg.boolean(),
    },
    resolve: (query, _r, args, ctx) => users.createUser(ctx, args, query),
  }),
  createCustomer: t.prismaField({
    type: "Customer",
    args: { name: t.arg.string({ required: true }), abbreviation: t.arg.string(), email: t.arg.string() },
    resolve: (query, _r, args, ctx) => organisations.createCustomer(ctx, args, query),
  }),
  createProject: t.prismaField({
    type: "Project",
    args: { customerUuid: t.arg.id({ required: true }), name: t.arg.string({ required: true }), description: t.arg.string() },
    resolve: (query, _r, args, ctx) =>
      organisations.createProject(ctx, { ...args, customerUuid: String(args.customerUuid) }, query),
  }),
  createServiceProvider: t.prismaField({
    type: "ServiceProvider",
    args: { customerUuid: t.arg.id({ required: true }), description: t.arg.string() },
    resolve: (query, _r, args, ctx) =>
      offerings.createServiceProvider(ctx, { customerUuid: String(args.customerUuid), description: args.description }, query),
  }),
  createOffering: t.prismaField({
    type: "Offering",
    args: {
      customerUuid: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      type: t.arg.string({ required: true }),
      description: t.arg.string(),
      pluginOptions: t.arg({ type: "JSON" }),
      partitions: t.arg({ type: "JSON", description: 'A list of objects, each with a "partition_name"' }),
      backendId: t.arg.string(),
      components: t.arg({ type: [ComponentInput] }),
      plans: t.arg({ type: [PlanInput] }),
    },
    resolve: (query, _r, args, ctx) => offerings.createOffering(ctx, { ...args, customerUuid: String(args.customerUuid) }, query),
  }),
  activateOffering: t.prismaField({
    type: "Offering",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => offerings.activateOffering(ctx, String(args.uuid), query),
  }),
  grantRole: t.prismaField({
    type: "RoleGrant",
    args: { input: t.arg({ type: RoleArgs, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const grant = await grantRole(ctx, { ...input, scopeUuid: String(input.scopeUuid), userUuid: String(input.userUuid) });
      return ctx.db.roleGrant.findUniqueOrThrow({ ...query, where: { id: grant.id } });
    },
  }),
  revokeRole: t.boolean({
    args: { input: t.arg({ type: RoleArgs, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      await revokeRole(ctx, { ...input, scopeUuid: String(input.scopeUuid), userUuid: String(input.userUuid) });
      return true;
    },
  }),
}));
void RoleGrantRef;
