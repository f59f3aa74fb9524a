import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";

/** Agents run for the provider: its customer's and offerings' role holders see them; staff and support see all. */
export async function visibleAgentIdentities(ctx: Context): Promise<Prisma.AgentIdentityWhereInput> {
  if (ctx.access.readsAll) return {};
  ctx.requireViewer();
  const [customers, offerings] = await Promise.all([ctx.access.scopeIds("CUSTOMER"), ctx.access.scopeIds("OFFERING")]);
  return { OR: [{ offering: { customerId: { in: customers } } }, { offeringId: { in: offerings } }] };
}
