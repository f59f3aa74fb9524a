import { builder, nullIfMissing } from "../../graphql/builder.ts";
import { collectionInputs } from "../../graphql/collection-inputs.ts";
import { connectionType, nodesQuery, pageArgs, toPage, relayConnection } from "../../graphql/pagination.ts";
import * as offerings from "../offerings.ts";
import * as organisations from "../organisations.ts";
import * as plans from "../plans.ts";
import * as users from "../users.ts";
import { CUSTOMER_CONTRACT } from "../customers-contract.ts";
import { SERVICE_PROVIDER_CONTRACT } from "../service-providers-contract.ts";
import { USER_CONTRACT } from "../users-contract.ts";
import { OFFERING_CONTRACT } from "../offerings-contract.ts";
import { PROJECT_CONTRACT } from "../projects-contract.ts";
import { CustomerRef, OfferingRef, OfferingStateEnum, ProjectRef, ServiceProviderRef, UserRef } from "./types.ts";
import "./roles.ts";
import "./mutations.ts";

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
    nullable: true,
    type: "User",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => nullIfMissing(users.getUser(ctx, String(args.uuid), query)),
  }),
  customers: t.field({
    type: CustomerConnection,
    args: { filter: t.arg({ type: CustomerFilterInput }), orderBy: t.arg({ type: [CustomerOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      relayConnection(organisations.listCustomers(ctx, { filter: args.filter, orderBy: args.orderBy, page: toPage(args) }, nodesQuery(ctx, info, "Customer"))),
  }),
  customer: t.prismaField({
    nullable: true,
    type: "Customer",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => nullIfMissing(organisations.getCustomer(ctx, String(args.uuid), query)),
  }),
  projects: t.field({
    type: ProjectConnection,
    args: { filter: t.arg({ type: ProjectFilterInput }), orderBy: t.arg({ type: [ProjectOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      relayConnection(organisations.listProjects(ctx, { filter: args.filter, orderBy: args.orderBy, page: toPage(args) }, nodesQuery(ctx, info, "Project"))),
  }),
  project: t.prismaField({
    nullable: true,
    type: "Project",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => nullIfMissing(organisations.getProject(ctx, String(args.uuid), query)),
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
    nullable: true,
    type: "ServiceProvider",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => nullIfMissing(offerings.getServiceProvider(ctx, String(args.uuid), query)),
  }),
  offerings: t.field({
    type: OfferingConnection,
    args: { filter: t.arg({ type: OfferingFilterInput }), orderBy: t.arg({ type: [OfferingOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      relayConnection(offerings.listOfferings(ctx, { filter: args.filter, orderBy: args.orderBy, page: toPage(args) }, nodesQuery(ctx, info, "Offering"))),
  }),
  offering: t.prismaField({
    nullable: true,
    type: "Offering",
    description: "With `filter`, found only if it passes those filters too (as Waldur's offering actions filter it)",
    args: { uuid: t.arg.id({ required: true }), filter: t.arg({ type: OfferingFilterInput }) },
    resolve: (query, _r, args, ctx) => nullIfMissing(offerings.getOffering(ctx, String(args.uuid), query, args.filter)),
  }),
  offeringPlan: t.prismaField({
    nullable: true,
    type: "OfferingPlan",
    description: "A plan of an offering the viewer may see",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => nullIfMissing(plans.getPlan(ctx, String(args.uuid), query)),
  }),
}));
