import { OFFERING_TRANSITIONS, OfferingTransitionError } from "./transitions.ts";
import { builder } from "../graphql/builder.ts";
import { CREATES, idInput, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";
import * as offerings from "./service-offerings.ts";
import * as organisations from "./service-organisations.ts";
import * as users from "./service-users.ts";
import { BillingTypeEnum, OfferingStateEnum } from "./schema-types.ts";
import { transitionFailure } from "../graphql/errors.ts";

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

const CreateUserInput = builder.inputType("CreateUserInput", {
  fields: (t) => ({
    username: t.string({ required: true }),
    email: t.string(),
    firstName: t.string(),
    lastName: t.string(),
    password: t.string(),
    isStaff: t.boolean(),
    isSupport: t.boolean(),
  }),
});

const CreateCustomerInput = builder.inputType("CreateCustomerInput", {
  fields: (t) => ({ name: t.string({ required: true }), abbreviation: t.string(), email: t.string() }),
});

const CreateProjectInput = builder.inputType("CreateProjectInput", {
  fields: (t) => ({
    customerUuid: t.id({ required: true }),
    name: t.string({ required: true }),
    description: t.string(),
    isIndustry: t.boolean({ description: "Default false" }),
    oecdFos2007Code: t.string({ description: 'An OECD Fields of Science (2007) code such as "1.2", or "" or null (the default) for none' }),
  }),
});

const CreateServiceProviderInput = builder.inputType("CreateServiceProviderInput", {
  fields: (t) => ({ customerUuid: t.id({ required: true }), description: t.string() }),
});

const CreateOfferingInput = builder.inputType("CreateOfferingInput", {
  fields: (t) => ({
    customerUuid: t.id({ required: true }),
    name: t.string({ required: true }),
    type: t.string({ required: true }),
    description: t.string(),
    pluginOptions: t.field({ type: "JSON" }),
    partitions: t.field({ type: "JSON", description: 'A list of objects, each with a "partition_name"' }),
    backendId: t.string(),
    components: t.field({ type: [ComponentInput] }),
    plans: t.field({ type: [PlanInput] }),
  }),
});

transitionFailure(OfferingTransitionError, "Offering", OfferingStateEnum);

const ACTIVATE = OFFERING_TRANSITIONS.activate;

builder.mutationFields((t) => ({
  createUser: t.prismaField({
    type: "User",
    ...resultOr(CREATES),
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: (query, _r, { input }, ctx) => users.createUser(ctx, input, query),
  }),
  createCustomer: t.prismaField({
    type: "Customer",
    ...resultOr(CREATES),
    args: { input: t.arg({ type: CreateCustomerInput, required: true }) },
    resolve: (query, _r, { input }, ctx) => organisations.createCustomer(ctx, input, query),
  }),
  createProject: t.prismaField({
    type: "Project",
    ...resultOr(CREATES),
    args: { input: t.arg({ type: CreateProjectInput, required: true }) },
    resolve: (query, _r, { input }, ctx) =>
      organisations.createProject(ctx, { ...input, customerUuid: String(input.customerUuid) }, query),
  }),
  createServiceProvider: t.prismaField({
    type: "ServiceProvider",
    ...resultOr(CREATES),
    args: { input: t.arg({ type: CreateServiceProviderInput, required: true }) },
    resolve: (query, _r, { input }, ctx) =>
      offerings.createServiceProvider(ctx, { customerUuid: String(input.customerUuid), description: input.description }, query),
  }),
  createOffering: t.prismaField({
    type: "Offering",
    ...resultOr(CREATES),
    args: { input: t.arg({ type: CreateOfferingInput, required: true }) },
    resolve: (query, _r, { input }, ctx) => offerings.createOffering(ctx, { ...input, customerUuid: String(input.customerUuid) }, query),
  }),
  [ACTIVATE.mutation]: t.prismaField({
    type: "Offering",
    ...resultOr(ON_OBJECT, OfferingTransitionError),
    description: `activate: ${ACTIVATE.from.join(", ")} → ${ACTIVATE.to}`,
    args: { input: t.arg({ type: idInput(ACTIVATE.mutation), required: true }) },
    resolve: (query, _r, { input }, ctx) => offerings.activateOffering(ctx, uuidOf("Offering", input.id), query),
  }),
}));
