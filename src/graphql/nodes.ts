import type { Context } from "../context.ts";

type LookUp = (ctx: Context, key: string) => Promise<unknown>;

/**
 * Relay node options for a Prisma model: the global id wraps the primary key, and `node(id:)` loads a record only
 * once the domain's own lookup (`lookUp`, NOT_FOUND for what the viewer may not see) has found it.
 */
export function visibleNode(lookUp: LookUp) {
  return {
    id: { field: "id" as const },
    findUnique: async (id: string, ctx: Context) => {
      await lookUp(ctx, id);
      return { id };
    },
  };
}

/** `visibleNode` for a model whose primary key is an integer. */
export function visibleIntNode(lookUp: LookUp) {
  return {
    id: { field: "id" as const },
    findUnique: async (id: string, ctx: Context) => {
      await lookUp(ctx, id);
      return { id: Number(id) };
    },
  };
}
