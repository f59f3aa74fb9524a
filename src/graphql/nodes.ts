import type { Context } from "../context.ts";
import type { NodeTypeName } from "../collections/type-names.ts";
import { tickBatch } from "../platform/database/batch.ts";
import { notFound } from "../platform/errors.ts";
import { parseUuid, toHex } from "../platform/ids.ts";

type LookUp = (ctx: Context, key: string) => Promise<unknown>;

/** Which of `ids` (valid uuids) the viewer may see: the domain's visibility rule for many records in one statement. */
export type VisibleAmong = (ctx: Context, ids: string[]) => Promise<ReadonlySet<string>>;

/** The batch form of a node type's lookup; `type` names the batch within a request. */
export interface NodeBatch {
  type: NodeTypeName;
  visibleAmong: VisibleAmong;
}

/**
 * Relay node options for a Prisma model: the global id wraps the primary key as 32 hex characters (the `uuid`
 * field's and REST's spelling; the dashed form is accepted too), and `node(id:)` loads a record only
 * once the domain's own lookup (`lookUp`, NOT_FOUND for what the viewer may not see) has found it. With `batch`,
 * the ids asked for in one turn of the event loop (a page of events with their subjects) are decided together.
 */
export function visibleNode(lookUp: LookUp, batch?: NodeBatch) {
  return {
    id: { resolve: (record: { id: string }) => toHex(record.id) },
    findUnique: async (id: string, ctx: Context) => {
      if (!batch) await lookUp(ctx, id);
      else if (!(await visibilityOf(ctx, batch)(id))) throw notFound();
      return { id: parseUuid(id) ?? id };
    },
  };
}

const visibilityOf = (ctx: Context, batch: NodeBatch) =>
  ctx.memo(`node-visibility:${batch.type}`, () =>
    tickBatch<string, boolean>(async (ids) => {
      const parsed = new Map(ids.map((id) => [id, parseUuid(id)]));
      const valid = [...new Set([...parsed.values()].filter((id): id is string => id !== null))];
      const visible = valid.length ? await batch.visibleAmong(ctx, valid) : new Set<string>();
      return (id) => {
        const uuid = parsed.get(id);
        return uuid !== null && uuid !== undefined && visible.has(uuid);
      };
    }),
  );

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
