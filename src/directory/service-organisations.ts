import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { Prisma, Project } from "../generated/prisma/client.ts";
import { recordEvent } from "../events/record.ts";
import type { FilterValues, OrderValue } from "../collections/contract.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { batchLoader } from "../platform/database/batch.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { fieldError } from "../platform/errors.ts";
import { idSet, toHex } from "../platform/ids.ts";
import { maxLength } from "../platform/text.ts";
import { transact } from "../platform/database/transaction.ts";
import { grantsInForce } from "./grants-in-force.ts";
import { validOecdCode } from "./oecd-fos-2007.ts";
import { CUSTOMER_CONTRACT } from "./customers-contract.ts";
import { referenced, requireStaff, visibleOne } from "./lookup.ts";
import { PROJECT_CONTRACT } from "./projects-contract.ts";
import { SERVICE_PROVIDER_CONTRACT } from "./service-providers-contract.ts";
import { visibleCustomers, visibleProjects } from "./visibility.ts";
import { findFirst, findMany, findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export type CustomerQuery = { select?: Prisma.CustomerSelect; include?: Prisma.CustomerInclude };
type ServiceProviderQuery = { select?: Prisma.ServiceProviderSelect; include?: Prisma.ServiceProviderInclude };
export type ProjectQuery = { select?: Prisma.ProjectSelect; include?: Prisma.ProjectInclude };

const required = (field: string, value: string | null | undefined, max: number) => {
  if (!value?.trim()) throw fieldError(field, "This field may not be blank.");
  return maxLength(field, value.trim(), max);
};

export async function listCustomers(
  ctx: Context,
  args: ListRequest<typeof CUSTOMER_CONTRACT>,
  query: CustomerQuery = {},
) {
  return listPage(ctx.db, "customer", CUSTOMER_CONTRACT, { visible: await visibleCustomers(ctx), request: args, query }, ctx);
}

/** How many people hold a role in force on a customer or one of its projects (Waldur's `users_count`); one batch per request tick. */
export function countCustomerUsers(ctx: Context, customerId: string): Promise<number> {
  const load = ctx.memo("customer:users-count", () =>
    batchLoader<string, number>(async (ids) => {
      const projects = await findMany(ctx.db, "project", { where: { customerId: { in: ids } }, select: { id: true, customerId: true } });
      const customerOfProject = new Map(projects.map((project) => [project.id, project.customerId]));
      const now = ctx.now();
      const grants = await findMany(ctx.db, "roleGrant", {
        where: {
          OR: [grantsInForce(now, "CUSTOMER", { scopeIds: ids }), grantsInForce(now, "PROJECT", { scopeIds: [...customerOfProject.keys()] })],
        },
        select: { userId: true, scopeType: true, scopeId: true },
      });
      const people = new Map(ids.map((id) => [id, new Set<string>()]));
      for (const grant of grants) {
        const customer = grant.scopeType === "CUSTOMER" ? grant.scopeId : customerOfProject.get(grant.scopeId);
        if (customer) people.get(customer)?.add(grant.userId);
      }
      return new Map([...people].map(([id, users]) => [id, users.size]));
    }, (id) => id),
  );
  return load(customerId).then((count) => count ?? 0);
}

/** Every service provider (Waldur's list is public), narrowed by the contract's filters. */
export async function listServiceProviders(
  ctx: Context,
  args: ListRequest<typeof SERVICE_PROVIDER_CONTRACT>,
  query: ServiceProviderQuery = {},
) {
  ctx.requireViewer();
  return listPage(ctx.db, "serviceProvider", SERVICE_PROVIDER_CONTRACT, { request: args, query });
}

export async function getCustomer(ctx: Context, uuid: string, query: CustomerQuery = {}) {
  const visible = await visibleCustomers(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "customer", { ...query, where: { AND: [{ id }, visible] } }));
}

/** Which of `ids` the viewer may see as customers (getCustomer's rule, for many in one statement). */
export const visibleCustomerIds = async (ctx: Context, ids: string[]) =>
  idSet(await findMany(ctx.db, "customer", { where: { AND: [{ id: { in: ids } }, await visibleCustomers(ctx)] }, select: { id: true } }));

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
  return findUniqueOrThrow(ctx.db, "customer", { ...query, where: { id } });
}

export type ProjectFilterValues = FilterValues<typeof PROJECT_CONTRACT>;
export type ProjectOrder = OrderValue<typeof PROJECT_CONTRACT>;

export async function listProjects(
  ctx: Context,
  args: ListRequest<typeof PROJECT_CONTRACT>,
  query: ProjectQuery = {},
): Promise<Connection<Project>> {
  return listPage(ctx.db, "project", PROJECT_CONTRACT, { visible: await visibleProjects(ctx), request: args, query }, ctx);
}

export async function getProject(ctx: Context, uuid: string, query: ProjectQuery = {}) {
  const visible = await visibleProjects(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "project", { ...query, where: { AND: [{ id }, visible] } }));
}

/** Which of `ids` the viewer may see as projects (getProject's rule). */
export const visibleProjectIds = async (ctx: Context, ids: string[]) =>
  idSet(await findMany(ctx.db, "project", { where: { AND: [{ id: { in: ids } }, await visibleProjects(ctx)] }, select: { id: true } }));

export interface NewProject {
  customerUuid: string;
  name: string;
  description?: string | null;
  isIndustry?: boolean | null;
  oecdFos2007Code?: string | null;
}

export async function createProject(
  ctx: Context,
  input: NewProject,
  query: ProjectQuery = {},
) {
  ctx.requireViewer();
  const customer = await referenced("customerUuid", input.customerUuid, (id) =>
    findUnique(ctx.db, "customer", { where: { id }, select: { id: true, name: true } }),
  );
  await ctx.access.require(Permission.CREATE_PROJECT, [{ type: "CUSTOMER", id: customer.id }]);
  const data = {
    customerId: customer.id,
    name: required("name", input.name, 500),
    description: input.description ?? "",
    isIndustry: input.isIndustry ?? false,
    oecdFos2007Code: validOecdCode("oecdFos2007Code", input.oecdFos2007Code ?? null),
  };
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
  return findUniqueOrThrow(ctx.db, "project", { ...query, where: { id } });
}
