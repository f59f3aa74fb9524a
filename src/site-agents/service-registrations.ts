import { offeringProviderScopes as providerScopes } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { visibleOne } from "../directory/lookup.ts";
import { fieldError } from "../platform/errors.ts";
import { maxLength } from "../platform/text.ts";
import { findManagedAgentIdentity } from "./service.ts";
import { visibleAgentIdentities } from "./visibility.ts";
import { findFirst } from "../platform/reads/sql/find.ts";

export type ServiceQuery = { select?: Prisma.AgentServiceSelect; include?: Prisma.AgentServiceInclude };
export type ProcessorQuery = { select?: Prisma.AgentProcessorSelect; include?: Prisma.AgentProcessorInclude };

const OFFERING = { select: { id: true, customerId: true } } as const;

const required = (field: string, value: string | null | undefined, max: number) => {
  if (!value?.trim()) throw fieldError(field, "This field is required.");
  return maxLength(field, value, max);
};

/**
 * Creates the row, or refreshes it when one with the same name exists (the agent registers on every start).
 * Creating first and updating on a unique violation keeps concurrent registrations from failing.
 */
async function createOrRefresh<T>(create: () => Promise<T>, refresh: () => Promise<T>): Promise<{ row: T; created: boolean }> {
  try {
    return { row: await create(), created: true };
  } catch (error) {
    if ((error as { code?: string }).code !== "P2002") throw error;
    return { row: await refresh(), created: false };
  }
}

export async function registerAgentService(ctx: Context, identityUuid: string, input: { name: string; mode?: string | null }) {
  const identity = await findManagedAgentIdentity(ctx, identityUuid);
  const name = required("name", input.name, 255);
  const mode = maxLength("mode", input.mode ?? "", 100);
  const { row, created } = await createOrRefresh(
    () => ctx.db.agentService.create({ data: { identityId: identity.id, name, mode, created: ctx.now() }, select: { id: true } }),
    () =>
      ctx.db.agentService.update({
        where: { identityId_name: { identityId: identity.id, name } },
        data: { mode, modified: ctx.now() },
        select: { id: true },
      }),
  );
  return { serviceId: row.id, created };
}

export async function getAgentService(ctx: Context, uuid: string, query: ServiceQuery = {}) {
  const visible = await visibleAgentIdentities(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "agentService", { ...query, where: { id, identity: visible } }));
}

export async function getAgentProcessor(ctx: Context, uuid: string, query: ProcessorQuery = {}) {
  const visible = await visibleAgentIdentities(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "agentProcessor", { ...query, where: { id, service: { identity: visible } } }));
}

async function findAgentService<S extends Prisma.AgentServiceSelect>(ctx: Context, uuid: string, select: S) {
  const visible = await visibleAgentIdentities(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "agentService", { select, where: { id, identity: visible } }));
}

export async function registerAgentProcessor(
  ctx: Context,
  serviceUuid: string,
  input: { name: string; backendType?: string | null; backendVersion?: string | null },
) {
  const service = await findAgentService(ctx, serviceUuid, { id: true, identity: { select: { offering: OFFERING } } });
  await ctx.access.require(Permission.MANAGE_SITE_AGENT, providerScopes(service.identity.offering));
  const name = required("name", input.name, 255);
  const data = {
    backendType: maxLength("backendType", input.backendType ?? "", 255),
    backendVersion: input.backendVersion == null ? null : maxLength("backendVersion", input.backendVersion, 100),
  };
  const { row, created } = await createOrRefresh(
    () => ctx.db.agentProcessor.create({ data: { ...data, serviceId: service.id, name, created: ctx.now() }, select: { id: true } }),
    () =>
      ctx.db.agentProcessor.update({
        where: { serviceId_name: { serviceId: service.id, name } },
        data: { ...data, modified: ctx.now() },
        select: { id: true },
      }),
  );
  await ctx.db.agentService.update({ where: { id: service.id }, data: { modified: ctx.now() } });
  return { processorId: row.id, created };
}
