import type { Context } from "../context.ts";
import { batchLoader } from "../platform/database/batch.ts";
import { findMany } from "../platform/reads/sql/find.ts";
import { type AccessPair, ALLOCATIONS, CONNECTING_GRANTS, pairKey, unexpired } from "./allocated-resources.ts";

/**
 * The projects that give each user their account in each offering: those with a live allocation of the offering in
 * which the user holds a role, or whose customer the user owns. Batched per request: two statements for a page.
 */
export const allocatingProjectIds = (ctx: Context) =>
  ctx.memo("offeringUserProjects", () =>
    batchLoader<AccessPair, string[]>(async (pairs) => {
      const grants = await findMany(ctx.db, "roleGrant", {
        where: { AND: [unexpired(ctx.now()), { userId: { in: [...new Set(pairs.map((p) => p.userId))] } }, { OR: CONNECTING_GRANTS }] },
        select: { userId: true, scopeType: true, scopeId: true },
      });
      const answer = new Map<string, string[]>();
      if (!grants.length) return answer;
      const scopeIds = (type: "PROJECT" | "CUSTOMER") => [...new Set(grants.filter((g) => g.scopeType === type).map((g) => g.scopeId))];
      const resources = await findMany(ctx.db, "resource", {
        where: {
          AND: [
            ALLOCATIONS,
            { offeringId: { in: [...new Set(pairs.map((p) => p.offeringId))] } },
            { OR: [{ projectId: { in: scopeIds("PROJECT") } }, { project: { customerId: { in: scopeIds("CUSTOMER") } } }] },
          ],
        },
        select: { offeringId: true, projectId: true, project: { select: { customerId: true, name: true } } },
      });
      resources.sort((a, b) => a.project.name.localeCompare(b.project.name) || a.projectId.localeCompare(b.projectId));
      const connections = new Set(grants.map((g) => `${g.userId}:${g.scopeType}:${g.scopeId}`));
      for (const pair of pairs) {
        const projects = resources
          .filter((r) => r.offeringId === pair.offeringId)
          .filter((r) => connections.has(`${pair.userId}:PROJECT:${r.projectId}`) || connections.has(`${pair.userId}:CUSTOMER:${r.project.customerId}`))
          .map((r) => r.projectId);
        answer.set(pairKey(pair), [...new Set(projects)]);
      }
      return answer;
    }, pairKey),
  );
