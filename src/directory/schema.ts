import { builder, nullIfMissing } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import * as offerings from "./service-offerings.ts";
import * as organisations from "./service-organisations.ts";
import * as plans from "./service-plans.ts";
import * as users from "./service-users.ts";
import { CUSTOMER_CONTRACT } from "./customers-contract.ts";
import { SERVICE_PROVIDER_CONTRACT } from "./service-providers-contract.ts";
import { USER_CONTRACT } from "./users-contract.ts";
import { OFFERING_CONTRACT } from "./offerings-contract.ts";
import { PROJECT_CONTRACT } from "./projects-contract.ts";
import { CustomerRef, OfferingRef, OfferingStateEnum, ProjectRef, ServiceProviderRef, UserRef } from "./schema-types.ts";
import "./schema-roles.ts";
import "./schema-mutations.ts";

export const userCollection = collectionFields({ node: UserRef, contract: USER_CONTRACT, list: users.listUsers, record: users.getUser });
export const customerCollection = collectionFields({ node: CustomerRef, contract: CUSTOMER_CONTRACT, list: organisations.listCustomers, record: organisations.getCustomer });
export const projectCollection = collectionFields({ node: ProjectRef, contract: PROJECT_CONTRACT, list: organisations.listProjects, record: organisations.getProject });
export const serviceProviderCollection = collectionFields({
  node: ServiceProviderRef, contract: SERVICE_PROVIDER_CONTRACT,
  list: organisations.listServiceProviders, record: offerings.getServiceProvider,
});

export const offeringCollection = collectionFields({
  node: OfferingRef, contract: OFFERING_CONTRACT, enums: { OfferingState: OfferingStateEnum }, list: offerings.listOfferings,
  record: {
    description: "With `filter`, found only if it passes those filters too (as Waldur's offering actions filter it)",
    filtered: true,
    load: (ctx, uuid, query, { filter }) => offerings.getOffering(ctx, uuid, query, filter),
  },
});

builder.queryFields((t) => ({
  me: t.prismaField({ type: "User", resolve: (query, _r, _a, ctx) => users.getMe(ctx, query) }),
  offeringPlan: t.prismaField({
    nullable: true,
    type: "OfferingPlan",
    description: "A plan of an offering the viewer may see",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => nullIfMissing(plans.getPlan(ctx, String(args.uuid), query)),
  }),
}));
