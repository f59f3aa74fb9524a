import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";

/**
 * Terms visible to the viewer (Waldur §3.1): staff and support all; others those of offerings whose customer
 * or which offering they hold a role on, of offerings they consented to, and the active terms of active offerings.
 */
export async function visibleTerms(ctx: Context): Promise<Prisma.OfferingTermsOfServiceWhereInput> {
  if (ctx.access.readsAll) return {};
  const viewer = ctx.requireViewer();
  const [customers, offerings] = await Promise.all([ctx.access.scopeIds("CUSTOMER"), ctx.access.scopeIds("OFFERING")]);
  return {
    OR: [
      { offering: { customerId: { in: customers } } },
      { offeringId: { in: offerings } },
      { offering: { consents: { some: { userId: viewer.id, revocationDate: null } } } },
      { isActive: true, offering: { state: "ACTIVE" } },
    ],
  };
}
