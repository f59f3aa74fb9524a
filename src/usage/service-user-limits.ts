import { allocationProviderScopes as providerScopes } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import { referenced, visibleOne } from "../directory/lookup.ts";
import { allocationEventParts, recordEvent } from "../events/record.ts";
import type { ComponentUserUsageLimit, Prisma } from "../generated/prisma/client.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { fieldError, inputError, notFound } from "../platform/errors.ts";
import { parseUuid, toHex } from "../platform/ids.ts";
import type { Db } from "../platform/database/connect.ts";
import { type Outbox, transact, type Tx } from "../platform/database/transaction.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import { visibleResources } from "../resources/visibility.ts";
import { amountError, toDecimal } from "./amounts.ts";
import { USER_LIMIT_CONTRACT } from "./user-limits-contract.ts";
import { findFirst, findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export type UserLimitQuery = { select?: Prisma.ComponentUserUsageLimitSelect; include?: Prisma.ComponentUserUsageLimitInclude };

/** Either side of the resource sees its users' limits, as with usages. */
async function visibleUserLimits(ctx: Context): Promise<Prisma.ComponentUserUsageLimitWhereInput> {
  if (ctx.access.readsAll) return {};
  return { resource: await visibleResources(ctx) };
}

export async function listUserLimits(
  ctx: Context,
  args: ListRequest<typeof USER_LIMIT_CONTRACT>,
  query: UserLimitQuery = {},
): Promise<Connection<ComponentUserUsageLimit>> {
  return listPage(ctx.db, "componentUserUsageLimit", USER_LIMIT_CONTRACT, { visible: await visibleUserLimits(ctx), request: args, query });
}

/** The user limit `uuid`, read by `find` among those the viewer may see (404 otherwise). */
async function findVisible<T>(ctx: Context, uuid: string, find: (where: Prisma.ComponentUserUsageLimitWhereInput) => Promise<T | null>) {
  const visible = await visibleUserLimits(ctx);
  return visibleOne(uuid, (id) => find({ AND: [{ id }, visible] }));
}

export async function getUserLimit(ctx: Context, uuid: string, query: UserLimitQuery = {}) {
  return findVisible(ctx, uuid, (where) => findFirst(ctx.db, "componentUserUsageLimit", { ...query, where }));
}

export interface CreateUserLimitInput {
  resource: string;
  /** The offering component by uuid (Waldur's `component`), or by type; the uuid wins when both are given. */
  component?: string | null;
  componentType?: string | null;
  user: string;
  limit: string;
}

const RESOURCE_CORE = {
  id: true,
  name: true,
  offeringId: true,
  projectId: true,
  offering: { select: { name: true, customerId: true } },
  project: { select: { name: true, customerId: true } },
} as const;

const LIMIT_CORE = {
  id: true,
  limit: true,
  resource: { select: RESOURCE_CORE },
  component: { select: { type: true } },
  user: { select: { id: true, username: true } },
} as const;
type LimitCore = Prisma.ComponentUserUsageLimitGetPayload<{ select: typeof LIMIT_CORE }>;

function validLimit(limit: string) {
  const problem = amountError(limit);
  if (problem) throw fieldError("limit", problem);
  return toDecimal(limit);
}

const notUnique = () => inputError("The fields resource, component, user must make a unique set.");

const CHANGE_WORDS = { created: "has been set to", updated: "has been changed to", deleted: "has been removed; it was" } as const;

async function recordLimitEvent(ctx: Context, tx: Tx, outbox: Outbox<Topics>, change: keyof typeof CHANGE_WORDS, limit: LimitCore, previous?: string) {
  const parts = allocationEventParts(limit.resource);
  const value = limit.limit.toFixed(2);
  await recordEvent(ctx, tx, outbox, {
    type: `component_user_usage_limit_${change}`,
    message: `The ${limit.component.type} limit of user ${limit.user.username} on resource ${limit.resource.name} ${CHANGE_WORDS[change]} ${value}.`,
    context: {
      ...parts.context,
      component_user_usage_limit_uuid: toHex(limit.id),
      resource_uuid: toHex(limit.resource.id),
      resource_name: limit.resource.name,
      component_type: limit.component.type,
      affected_user_uuid: toHex(limit.user.id),
      affected_user_username: limit.user.username,
      limit: value,
      ...(previous !== undefined ? { old_limit: previous } : {}),
    },
    scopes: [...parts.scopes, { type: "RESOURCE", id: limit.resource.id }, { type: "USER", id: limit.user.id }],
  });
}

/** The component a new limit caps: one of the resource's offering, named by uuid or by type. */
async function limitedComponent(ctx: Context, offeringId: string, input: Pick<CreateUserLimitInput, "component" | "componentType">) {
  if (input.component != null) {
    const id = parseUuid(input.component);
    const component = id ? await findUnique(ctx.db, "offeringComponent", { where: { id }, select: { id: true, offeringId: true } }) : null;
    if (!component) throw fieldError("componentUuid", `Object with uuid=${input.component} does not exist.`);
    if (component.offeringId !== offeringId) throw fieldError("componentUuid", "The component does not belong to the offering of this resource.");
    return component;
  }
  if (input.componentType == null) throw fieldError("componentUuid", "This field is required.");
  const component = await findUnique(ctx.db, "offeringComponent", {
    where: { offeringId_type: { offeringId, type: input.componentType } },
    select: { id: true },
  });
  if (!component) throw fieldError("componentType", `The offering of this resource has no component of type "${input.componentType}".`);
  return component;
}

/** Input is checked first (400: unknown or invisible resource, user or component type), then SET_RESOURCE_LIMITS (403). */
export async function createUserLimit(ctx: Context, input: CreateUserLimitInput, query: UserLimitQuery = {}) {
  ctx.requireViewer();
  const limit = validLimit(input.limit);
  const visible = await visibleResources(ctx);
  const resource = await referenced("resourceUuid", input.resource, (id) =>
    findFirst(ctx.db, "resource", { where: { AND: [{ id }, visible] }, select: RESOURCE_CORE }),
  );
  const user = await referenced("userUuid", input.user, (id) => findUnique(ctx.db, "user", { where: { id }, select: { id: true } }));
  const component = await limitedComponent(ctx, resource.offeringId, input);
  await ctx.access.require(Permission.SET_RESOURCE_LIMITS, providerScopes(resource));
  return transact(ctx, async (tx, outbox) => {
    const key = { resourceId: resource.id, componentId: component.id, userId: user.id };
    if (await findUnique(tx, "componentUserUsageLimit", { where: { resourceId_componentId_userId: key }, select: { id: true } })) throw notUnique();
    const created = await tx.componentUserUsageLimit.create({ data: { ...key, limit, created: ctx.now(), modified: ctx.now() }, select: LIMIT_CORE });
    await recordLimitEvent(ctx, tx, outbox, "created", created);
    return findUniqueOrThrow(tx, "componentUserUsageLimit", { ...query, where: { id: created.id } });
  }).catch((error: { code?: string }) => {
    throw error.code === "P2002" ? notUnique() : error;
  });
}

/** Visible from either side (404 otherwise); changed only from the provider side (403). */
async function loadForChange(ctx: Context, uuid: string) {
  ctx.requireViewer();
  const limit = await findVisible(ctx, uuid, (where) => findFirst(ctx.db, "componentUserUsageLimit", { select: LIMIT_CORE, where }));
  await ctx.access.require(Permission.SET_RESOURCE_LIMITS, providerScopes(limit.resource));
  return limit;
}

export async function updateUserLimit(ctx: Context, uuid: string, input: { limit?: string | null }, query: UserLimitQuery = {}) {
  const newLimit = input.limit == null ? undefined : validLimit(input.limit);
  const limit = await loadForChange(ctx, uuid);
  const reread = (db: Tx | Db) => findUniqueOrThrow(db, "componentUserUsageLimit", { ...query, where: { id: limit.id } });
  if (!newLimit || newLimit.equals(limit.limit)) return reread(ctx.db);
  return transact(ctx, async (tx, outbox) => {
    const { count } = await tx.componentUserUsageLimit.updateMany({ where: { id: limit.id }, data: { limit: newLimit, modified: ctx.now() } });
    if (!count) throw notFound();
    await recordLimitEvent(ctx, tx, outbox, "updated", { ...limit, limit: newLimit }, limit.limit.toFixed(2));
    return reread(tx);
  });
}

export async function deleteUserLimit(ctx: Context, uuid: string): Promise<string> {
  const limit = await loadForChange(ctx, uuid);
  await transact(ctx, async (tx, outbox) => {
    const { count } = await tx.componentUserUsageLimit.deleteMany({ where: { id: limit.id } });
    if (!count) throw notFound();
    await recordLimitEvent(ctx, tx, outbox, "deleted", limit);
  });
  return toHex(limit.id);
}
