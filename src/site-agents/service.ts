import { offeringProviderScopes as providerScopes } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { AgentIdentity, Prisma } from "../generated/prisma/client.ts";
import { referenced, visibleOne } from "../directory/lookup.ts";
import { recordEvent } from "../events/record.ts";
import type { FilterValues, OrderValue } from "../collections/contract.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { fieldError, invalid } from "../platform/errors.ts";
import { toHex } from "../platform/ids.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { maxLength } from "../platform/text.ts";
import { transact } from "../platform/database/transaction.ts";
import { AGENT_IDENTITY_CONTRACT } from "./contract.ts";
import { visibleAgentIdentities } from "./visibility.ts";
import { findFirst, findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export type IdentityQuery = { select?: Prisma.AgentIdentitySelect; include?: Prisma.AgentIdentityInclude };

export type IdentityFilter = FilterValues<typeof AGENT_IDENTITY_CONTRACT>;
export type IdentityOrder = OrderValue<typeof AGENT_IDENTITY_CONTRACT>;

export type AgentDependency = { package: string; version: string };

/** What the agent reports about itself on every start and loop, named as the GraphQL input names it. */
export interface IdentityInput {
  offeringUuid?: string | null;
  name?: string | null;
  version?: string | null;
  /** A list of AgentDependency; its shape is checked here. */
  dependencies?: unknown;
  configFilePath?: string | null;
  configFileContent?: string | null;
  lastRestarted?: Date | null;
}

export async function listAgentIdentities(
  ctx: Context,
  args: ListRequest<typeof AGENT_IDENTITY_CONTRACT>,
  query: IdentityQuery = {},
): Promise<Connection<AgentIdentity>> {
  return listPage(ctx.db, "agentIdentity", AGENT_IDENTITY_CONTRACT, { visible: await visibleAgentIdentities(ctx), request: args, query });
}

export async function getAgentIdentity(ctx: Context, uuid: string, query: IdentityQuery = {}) {
  const visible = await visibleAgentIdentities(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "agentIdentity", { ...query, where: { AND: [{ id }, visible] } }));
}

export async function findAgentIdentity<S extends Prisma.AgentIdentitySelect>(ctx: Context, uuid: string, select: S) {
  const visible = await visibleAgentIdentities(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "agentIdentity", { select, where: { AND: [{ id }, visible] } }));
}

/** An identity the caller may see and run agents for (its offering's provider side, or staff); 403/404 otherwise. */
export async function findManagedAgentIdentity(ctx: Context, uuid: string) {
  const identity = await findAgentIdentity(ctx, uuid, { id: true, offering: { select: { id: true, customerId: true } } });
  await ctx.access.require(Permission.MANAGE_SITE_AGENT, providerScopes(identity.offering));
  return identity;
}

function validDependencies(value: unknown): AgentDependency[] | undefined {
  if (value == null) return undefined;
  const valid =
    Array.isArray(value) &&
    value.every((d) => d && typeof d === "object" && typeof d.package === "string" && typeof d.version === "string");
  if (!valid) throw invalid({ dependencies: ['Expected a list of {"package": …, "version": …} objects.'] });
  return (value as AgentDependency[]).map((d) => ({ package: maxLength("dependencies", d.package, 255), version: maxLength("dependencies", d.version, 100) }));
}

/** The free-text fields an agent reports, with their column limits; null clears a field. */
const REPORTED_TEXT = { version: 100, configFilePath: 500, configFileContent: Number.POSITIVE_INFINITY } as const;

function reported(input: IdentityInput) {
  const data: Prisma.AgentIdentityUncheckedUpdateInput = {};
  if (input.name != null) data.name = maxLength("name", input.name, 255);
  for (const [key, max] of Object.entries(REPORTED_TEXT) as Array<[keyof typeof REPORTED_TEXT, number]>) {
    const value = input[key];
    if (value !== undefined) data[key] = value === null ? null : maxLength(key, value, max);
  }
  if (input.dependencies !== undefined) data.dependencies = validDependencies(input.dependencies) ?? [];
  if (input.lastRestarted !== undefined) data.lastRestarted = input.lastRestarted;
  return data;
}

const nameTaken = () => fieldError("name", "Agent identity with this name already exists for the offering.");

async function managedOffering(ctx: Context, uuid: string | null | undefined) {
  ctx.requireViewer();
  const offering = await referenced("offeringUuid", uuid, (id) =>
    findUnique(ctx.db, "offering", { where: { id }, select: { id: true, name: true, customerId: true } }),
  );
  await ctx.access.require(Permission.MANAGE_SITE_AGENT, providerScopes(offering));
  return offering;
}

/** Only the offering's service-provider side (owners, managers, offering managers) and staff register agents. */
export async function createAgentIdentity(ctx: Context, input: IdentityInput, query: IdentityQuery = {}) {
  const missing = (["offeringUuid", "name"] as const).filter((field) => !input[field]?.trim());
  if (missing.length) throw invalid(Object.fromEntries(missing.map((field) => [field, ["This field is required."]])));
  const data = { ...reported(input), name: maxLength("name", input.name!, 255) } as Prisma.AgentIdentityUncheckedCreateInput;
  const offering = await managedOffering(ctx, input.offeringUuid);
  return transact(ctx, async (tx, outbox) => {
    const identity = await tx.agentIdentity.create({
      data: { ...data, offeringId: offering.id, createdById: ctx.viewer!.id, created: ctx.now() },
      select: { id: true },
    });
    await recordEvent(ctx, tx, outbox, {
      type: "marketplace_site_agent_registered",
      message: `Site agent ${data.name} has been registered for offering ${offering.name}.`,
      context: { agent_identity_uuid: toHex(identity.id), agent_name: data.name, offering_uuid: toHex(offering.id), version: data.version ?? null },
      scopes: providerScopes(offering),
    });
    return findUniqueOrThrow(tx, "agentIdentity", { ...query, where: { id: identity.id } });
  }).catch((error: { code?: string }) => {
    throw error.code === "P2002" ? nameTaken() : error;
  });
}

/** The agent's PUT on every start: its version, dependencies and restart time replace the stored ones. */
export async function updateAgentIdentity(ctx: Context, uuid: string, input: IdentityInput, query: IdentityQuery = {}) {
  const identity = await findAgentIdentity(ctx, uuid, { id: true, offeringId: true });
  if (input.name != null && !input.name.trim()) throw fieldError("name", "This field may not be blank.");
  const data = reported(input);
  const offering = await managedOffering(ctx, input.offeringUuid ?? toHex(identity.offeringId));
  if (offering.id !== identity.offeringId) throw fieldError("offeringUuid", "The offering of an agent identity cannot be changed.");
  // The update answers with the record itself: no read after it commits (a lost connection could fail that read).
  return ctx.db.agentIdentity
    .update({ ...query, where: { id: identity.id }, data: { ...data, modified: ctx.now() } })
    .catch((error: { code?: string }) => {
      throw error.code === "P2002" ? nameTaken() : error;
    });
}

export async function deleteAgentIdentity(ctx: Context, uuid: string) {
  const identity = await findAgentIdentity(ctx, uuid, {
    id: true,
    name: true,
    offering: { select: { id: true, name: true, customerId: true } },
  });
  await ctx.access.require(Permission.MANAGE_SITE_AGENT, providerScopes(identity.offering));
  await transact(ctx, async (tx, outbox) => {
    await tx.agentIdentity.deleteMany({ where: { id: identity.id } });
    await recordEvent(ctx, tx, outbox, {
      type: "marketplace_site_agent_removed",
      message: `Site agent ${identity.name} of offering ${identity.offering.name} has been removed.`,
      context: { agent_identity_uuid: toHex(identity.id), agent_name: identity.name, offering_uuid: toHex(identity.offering.id) },
      scopes: providerScopes(identity.offering),
    });
  });
  return toHex(identity.id);
}
