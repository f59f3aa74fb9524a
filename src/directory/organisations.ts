import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { recordEvent } from "../events/record.ts";
import type { Page } from "../platform/paginate.ts";
import { fieldError } from "../platform/errors.ts";
import { parseUuid, toHex } from "../platform/ids.ts";
import { paginate } from "../platform/paginate.ts";
import { maxLength } from "../platform/text.ts";
import { icontains } from "../platform/text-match.ts";
import { transact } from "../platform/transaction.ts";
import { referenced, requireStaff, visibleOne } from "./lookup.ts";
import { visibleCustomers, visibleProjects } from "./visibility.ts";

export type CustomerQuery = { select?: Prisma.CustomerSelect; include?: Prisma.CustomerInclude };
export type ProjectQuery = { select?: Prisma.ProjectSelect; include?: Prisma.ProjectInclude };

const required = (field: string, value: string | null | undefined, max: number) => {
  if (!value?.trim()) throw fieldError(field, "This field may not be blank.");
  return maxLength(field, value.trim(), max);
};

export async function listCustomers(ctx: Context, args: { name?: string | null; page: Page }, query: CustomerQuery = {}) {
  const where = {
    AND: [await visibleCustomers(ctx), args.name ? { name: icontains(args.name) } : {}],
  };
  return paginate(ctx.db.customer, { where, orderBy: [{ name: "asc" }, { id: "asc" }], page: args.page, query });
}

export async function getCustomer(ctx: Context, uuid: string, query: CustomerQuery = {}) {
  const visible = await visibleCustomers(ctx);
  return visibleOne(uuid, (id) => ctx.db.customer.findFirst({ ...query, where: { AND: [{ id }, visible] } }));
}

export async function createCustomer(
  ctx: Context,
  input: { name: string; abbreviation?: string | null; email?: string | null },
  query: CustomerQuery = {},
) {
  requireStaff(ctx);
  const data = {
    name: required("name", input.name, 150),
    abbreviation: maxLength("abbreviation", input.abbreviation ?? "", 12),
    email: maxLength("email", input.email ?? "", 320),
  };
  const id = await transact(ctx, async (tx, outbox) => {
    const customer = await tx.customer.create({ data, select: { id: true } });
    await recordEvent(ctx, tx, outbox, {
      type: "customer_creation_succeeded",
      message: `Customer ${data.name} has been created.`,
      context: { customer_uuid: toHex(customer.id), customer_name: data.name },
      scopes: [{ type: "CUSTOMER", id: customer.id }],
    });
    return customer.id;
  });
  return ctx.db.customer.findUniqueOrThrow({ ...query, where: { id } });
}

export async function listProjects(
  ctx: Context,
  args: { customerUuid?: string | null; name?: string | null; page: Page },
  query: ProjectQuery = {},
) {
  const customerId = args.customerUuid ? parseUuid(args.customerUuid) : undefined;
  if (customerId === null) throw fieldError("customer_uuid", "Enter a valid UUID.");
  const where = {
    AND: [
      await visibleProjects(ctx),
      customerId ? { customerId } : {},
      args.name ? { name: icontains(args.name) } : {},
    ],
  };
  return paginate(ctx.db.project, { where, orderBy: [{ name: "asc" }, { id: "asc" }], page: args.page, query });
}

export async function getProject(ctx: Context, uuid: string, query: ProjectQuery = {}) {
  const visible = await visibleProjects(ctx);
  return visibleOne(uuid, (id) => ctx.db.project.findFirst({ ...query, where: { AND: [{ id }, visible] } }));
}

export async function createProject(
  ctx: Context,
  input: { customer: string; name: string; description?: string | null },
  query: ProjectQuery = {},
) {
  ctx.requireViewer();
  const customer = await referenced("customer", input.customer, (id) =>
    ctx.db.customer.findUnique({ where: { id }, select: { id: true, name: true } }),
  );
  await ctx.access.require(Permission.CREATE_PROJECT, [{ type: "CUSTOMER", id: customer.id }]);
  const data = { customerId: customer.id, name: required("name", input.name, 500), description: input.description ?? "" };
  const id = await transact(ctx, async (tx, outbox) => {
    const project = await tx.project.create({ data, select: { id: true } });
    await recordEvent(ctx, tx, outbox, {
      type: "project_creation_succeeded",
      message: `Project ${data.name} has been created in ${customer.name}.`,
      context: { project_uuid: toHex(project.id), project_name: data.name, customer_uuid: toHex(customer.id) },
      scopes: [
        { type: "PROJECT", id: project.id },
        { type: "CUSTOMER", id: customer.id },
      ],
    });
    return project.id;
  });
  return ctx.db.project.findUniqueOrThrow({ ...query, where: { id } });
}
