import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { BillingType, Offering, OfferingState, Prisma } from "../generated/prisma/client.ts";
import { recordEvent } from "../events/record.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { fieldError, invalid, notFound, wrongState } from "../platform/errors.ts";
import { idSet, toHex } from "../platform/ids.ts";
import { canTransition, swapFromObserved, type TransitionRule } from "../platform/state-machine.ts";
import { maxLength } from "../platform/text.ts";
import { transact } from "../platform/database/transaction.ts";
import { type FilterValues, type OrderValue, orderValues } from "../collections/contract.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { referenced, visibleOne } from "./lookup.ts";
import { OFFERING_CONTRACT, OFFERING_STATE_LABELS } from "./offerings-contract.ts";
import { pageByTotalCustomers } from "./offering-totals.ts";
import { visibleOfferings } from "./visibility.ts";
import { OFFERING_TRANSITIONS, OfferingTransitionError } from "./transitions.ts";
import { findFirst, findMany, findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export type OfferingQuery = { select?: Prisma.OfferingSelect; include?: Prisma.OfferingInclude };
export type ServiceProviderQuery = { select?: Prisma.ServiceProviderSelect; include?: Prisma.ServiceProviderInclude };

export { OFFERING_STATE_LABELS };

export async function getServiceProvider(ctx: Context, uuid: string, query: ServiceProviderQuery = {}) {
  ctx.requireViewer();
  return visibleOne(uuid, (id) => findUnique(ctx.db, "serviceProvider", { ...query, where: { id } }));
}

/** Which of `ids` the viewer may see as service providers (getServiceProvider's rule: any signed-in viewer). */
export async function visibleServiceProviderIds(ctx: Context, ids: string[]) {
  ctx.requireViewer();
  return idSet(await findMany(ctx.db, "serviceProvider", { where: { id: { in: ids } }, select: { id: true } }));
}

export async function createServiceProvider(
  ctx: Context,
  input: { customerUuid: string; description?: string | null },
  query: ServiceProviderQuery = {},
) {
  ctx.requireViewer();
  const customer = await referenced("customerUuid", input.customerUuid, (id) =>
    findUnique(ctx.db, "customer", { where: { id }, select: { id: true, name: true } }),
  );
  await ctx.access.require(Permission.REGISTER_SERVICE_PROVIDER, [{ type: "CUSTOMER", id: customer.id }]);
  const taken = () => fieldError("customerUuid", "Service provider with this customer already exists.");
  const id = await transact(ctx, async (tx, outbox) => {
    if (await findUnique(tx, "serviceProvider", { where: { customerId: customer.id } })) throw taken();
    const provider = await tx.serviceProvider.create({
      data: { customerId: customer.id, description: input.description ?? "" },
      select: { id: true },
    });
    await recordEvent(ctx, tx, outbox, {
      type: "marketplace_service_provider_created",
      message: `Service provider for ${customer.name} has been created.`,
      context: { service_provider_uuid: toHex(provider.id), customer_uuid: toHex(customer.id) },
      scopes: [
        { type: "SERVICE_PROVIDER", id: provider.id },
        { type: "CUSTOMER", id: customer.id },
      ],
    });
    return provider.id;
  }).catch((error: { code?: string }) => {
    throw error.code === "P2002" ? taken() : error;
  });
  return findUniqueOrThrow(ctx.db, "serviceProvider", { ...query, where: { id } });
}

export type OfferingFilterValues = FilterValues<typeof OFFERING_CONTRACT>;
export type OfferingOrder = OrderValue<typeof OFFERING_CONTRACT>;

const ORDER_VALUES = orderValues(OFFERING_CONTRACT);

/** The visible offerings that pass the filters. */
async function offeringsWhere(ctx: Context, filter: OfferingFilterValues | null | undefined): Promise<Prisma.OfferingWhereInput> {
  return { AND: [await visibleOfferings(ctx), ...(await OFFERING_CONTRACT.where(filter, ctx))] };
}

export async function listOfferings(
  ctx: Context,
  args: ListRequest<typeof OFFERING_CONTRACT>,
  query: OfferingQuery = {},
): Promise<Connection<Offering>> {
  const keys = (args.orderBy ?? []).flatMap((value) => {
    const order = ORDER_VALUES.get(value);
    return order ? [`${order.direction === "desc" ? "-" : ""}${order.key}`] : [];
  });
  if (!keys.some((key) => key.endsWith("total_customers"))) {
    return listPage(ctx.db, "offering", OFFERING_CONTRACT, { visible: await visibleOfferings(ctx), request: args, query }, ctx);
  }
  const where = await offeringsWhere(ctx, args.filter);
  const orderBy = OFFERING_CONTRACT.orderBy(args.orderBy);
  return pageByTotalCustomers(ctx, { where, orderBy, keys, page: args.page }, (ids) =>
    findMany(ctx.db, "offering", { ...query, where: { id: { in: ids } } }),
  );
}

/** One visible offering; with `filter`, only if it passes the filters too (Waldur's filtered detail actions). */
export async function getOffering(ctx: Context, uuid: string, query: OfferingQuery = {}, filter?: OfferingFilterValues | null) {
  const where = await offeringsWhere(ctx, filter);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "offering", { ...query, where: { AND: [{ id }, where] } }));
}

/** Which of `ids` the viewer may see as offerings (getOffering's rule, without a filter). */
export const visibleOfferingIds = async (ctx: Context, ids: string[]) =>
  idSet(await findMany(ctx.db, "offering", { where: { AND: [{ id: { in: ids } }, await offeringsWhere(ctx, undefined)] }, select: { id: true } }));

export interface ComponentInput {
  type: string;
  name: string;
  billingType: BillingType;
  measuredUnit?: string | null;
  limitPeriod?: string | null;
  limitAmount?: number | null;
}

export interface CreateOfferingInput {
  customerUuid: string;
  name: string;
  type: string;
  description?: string | null;
  pluginOptions?: unknown;
  partitions?: unknown;
  backendId?: string | null;
  components?: ComponentInput[] | null;
  plans?: Array<{ name: string; unitPrice?: string | null; unit?: string | null }> | null;
}

/** DRF DecimalField(max_digits=22, decimal_places=10), the type of unit_price. */
function unitPriceError(price: string): string | undefined {
  const match = /^[-+]?(\d*)(?:\.(\d*))?$/.exec(price.trim());
  if (!match || (match[1] + (match[2] ?? "")) === "") return "A valid number is required.";
  const [, whole, fraction = ""] = match;
  if (fraction.length > 10) return "Ensure that there are no more than 10 decimal places.";
  if (whole.replace(/^0+/, "").length > 12) return "Ensure that there are no more than 12 digits before the decimal point.";
  return undefined;
}

function validOffering(input: CreateOfferingInput) {
  const errors: Record<string, string[]> = {};
  if (!input.name?.trim()) errors.name = ["This field may not be blank."];
  if (!input.type?.trim()) errors.type = ["This field may not be blank."];
  const options = input.pluginOptions ?? {};
  if (typeof options !== "object" || Array.isArray(options) || options === null) errors.pluginOptions = ["Expected a dictionary of items."];
  const types = (input.components ?? []).map((c) => c.type);
  if (types.some((t) => !/^[\w-]{1,50}$/.test(t))) errors.components = ["Component type must be 1-50 letters, digits, - or _."];
  else if (new Set(types).size !== types.length) errors.components = ["Component types must be unique."];
  const partitions = input.partitions ?? [];
  const validPartition = (p: unknown) => !!p && typeof p === "object" && !Array.isArray(p) && typeof (p as { partition_name?: unknown }).partition_name === "string";
  if (!Array.isArray(partitions) || !partitions.every(validPartition)) errors.partitions = ['Expected a list of objects, each with a "partition_name".'];
  const priceError = (input.plans ?? []).map((p) => (p.unitPrice == null ? undefined : unitPriceError(p.unitPrice))).find(Boolean);
  if (priceError) errors.plans = [`unit_price: ${priceError}`];
  if (Object.keys(errors).length) throw invalid(errors);
  return { pluginOptions: options as Prisma.InputJsonObject, partitions: partitions as Prisma.InputJsonArray };
}

export async function createOffering(ctx: Context, input: CreateOfferingInput, query: OfferingQuery = {}) {
  ctx.requireViewer();
  const customer = await referenced("customerUuid", input.customerUuid, (id) =>
    findUnique(ctx.db, "customer", { where: { id }, select: { id: true, name: true, serviceProvider: { select: { id: true } } } }),
  );
  await ctx.access.require(Permission.CREATE_OFFERING, [{ type: "CUSTOMER", id: customer.id }]);
  if (!customer.serviceProvider) throw fieldError("customerUuid", "The customer is not a service provider.");
  const { pluginOptions, partitions } = validOffering(input);
  const id = await transact(ctx, async (tx, outbox) => {
    const offering = await tx.offering.create({
      data: {
        customerId: customer.id,
        name: maxLength("name", input.name.trim(), 150),
        type: maxLength("type", input.type.trim(), 100),
        description: input.description ?? "",
        pluginOptions,
        partitions,
        backendId: maxLength("backendId", input.backendId ?? "", 255),
        components: {
          create: (input.components ?? []).map((c) => ({
            type: c.type,
            name: maxLength("components", c.name || c.type, 150),
            billingType: c.billingType,
            measuredUnit: c.measuredUnit ?? "",
            limitPeriod: c.limitPeriod ?? null,
            limitAmount: c.limitAmount ?? null,
          })),
        },
        plans: {
          create: (input.plans ?? []).map((p) => ({ name: p.name, unitPrice: p.unitPrice ?? "0", unit: p.unit ?? "month" })),
        },
      },
      select: { id: true, name: true },
    });
    await recordEvent(ctx, tx, outbox, {
      type: "marketplace_offering_created",
      message: `Offering ${offering.name} has been created.`,
      context: { offering_uuid: toHex(offering.id), offering_name: offering.name, customer_uuid: toHex(customer.id) },
      scopes: [
        { type: "OFFERING", id: offering.id },
        { type: "CUSTOMER", id: customer.id },
      ],
    });
    return offering.id;
  });
  return findUniqueOrThrow(ctx.db, "offering", { ...query, where: { id } });
}

const notAllowedFrom = (rule: TransitionRule<OfferingState>, current: OfferingState) =>
  wrongState(OfferingTransitionError, `Valid states for operation: ${rule.from.map((s) => OFFERING_STATE_LABELS[s]).join(", ")}.`, current, rule.from);

export async function activateOffering(ctx: Context, uuid: string, query: OfferingQuery = {}) {
  const offering = await getOffering(ctx, uuid, { select: { id: true, name: true, state: true, customerId: true } });
  await ctx.access.require(Permission.UPDATE_OFFERING, [
    { type: "OFFERING", id: offering.id },
    { type: "CUSTOMER", id: offering.customerId },
  ]);
  const rule = OFFERING_TRANSITIONS.activate;
  if (!canTransition(rule, offering.state)) throw notAllowedFrom(rule, offering.state);
  await transact(ctx, async (tx, outbox) => {
    const replaced = await swapFromObserved(
      rule,
      offering.state,
      (from) => tx.offering.updateMany({ where: { id: offering.id, state: from }, data: { state: rule.to } }),
      async () => (await findUnique(tx, "offering", { where: { id: offering.id }, select: { state: true } }))?.state ?? null,
      { invalid: (current) => notAllowedFrom(rule, current), missing: notFound },
    );
    await recordEvent(ctx, tx, outbox, {
      type: "marketplace_offering_updated",
      message: `Offering ${offering.name} has been activated.`,
      context: { offering_uuid: toHex(offering.id), old_state: OFFERING_STATE_LABELS[replaced], new_state: "Active" },
      scopes: [
        { type: "OFFERING", id: offering.id },
        { type: "CUSTOMER", id: offering.customerId },
      ],
    });
  });
  return findUniqueOrThrow(ctx.db, "offering", { ...query, where: { id: offering.id } });
}
