import type { ObjectRef } from "@pothos/core";
import { queryFromInfo } from "@pothos/plugin-prisma";
import type { GraphQLResolveInfo } from "graphql";
import { fieldError } from "../platform/errors.ts";
import { type Connection, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from "../platform/paginate.ts";
import { builder, type Types } from "./builder.ts";


export interface PageArgs {
  first?: number | null;
  after?: string | null;
  offset?: number | null;
}

const encodeCursor = (offset: number) => Buffer.from(`offset:${offset}`).toString("base64url");

function decodeCursor(cursor: string): number {
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) throw fieldError("after", "Invalid cursor.");
  return Number(match[1]);
}

/** `first` (default 10, at most 300) items after the cursor `after`, or from position `offset`. */
export function toPage({ first, after, offset }: PageArgs): Page {
  if (first != null && first < 0) throw fieldError("first", "Must be zero or more.");
  if (offset != null && offset < 0) throw fieldError("offset", "Must be zero or more.");
  const skip = after ? decodeCursor(after) + 1 : (offset ?? 0);
  return { skip, take: Math.min(first ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE) };
}

export const pageArgs = builder.args((t) => ({
  first: t.int({ description: `Page size (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})` }),
  after: t.string({ description: "Cursor of the last item of the previous page" }),
  offset: t.int({ description: "Position of the first item (alternative to `after`)" }),
}));

const PageInfo = builder
  .objectRef<{ hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }>(
    "PageInfo",
  )
  .implement({
    fields: (t) => ({
      hasNextPage: t.exposeBoolean("hasNextPage"),
      hasPreviousPage: t.exposeBoolean("hasPreviousPage"),
      startCursor: t.exposeString("startCursor", { nullable: true }),
      endCursor: t.exposeString("endCursor", { nullable: true }),
    }),
  });

/** A connection with a total count and cursors that are positions, so REST pages and GraphQL cursors agree. */
export function connectionType<T>(name: string, node: ObjectRef<Types, T>) {
  const Edge = builder.objectRef<{ node: T; cursor: string }>(`${name}Edge`).implement({
    fields: (t) => ({
      cursor: t.exposeString("cursor"),
      node: t.expose("node", { type: node }),
    }),
  });
  return builder.objectRef<Connection<T>>(`${name}Connection`).implement({
    fields: (t) => ({
      totalCount: t.exposeInt("totalCount"),
      nodes: t.field({ type: [node], resolve: (c) => c.nodes }),
      edges: t.field({
        type: [Edge],
        resolve: (c) => c.nodes.map((n, i) => ({ node: n, cursor: encodeCursor(c.skip + i) })),
      }),
      pageInfo: t.field({
        type: PageInfo,
        resolve: (c) => ({
          hasNextPage: c.skip + c.nodes.length < c.totalCount,
          hasPreviousPage: c.skip > 0,
          startCursor: c.nodes.length ? encodeCursor(c.skip) : null,
          endCursor: c.nodes.length ? encodeCursor(c.skip + c.nodes.length - 1) : null,
        }),
      }),
    }),
  });
}

/** What plugin-prisma must load for the nodes of a connection, whether the client asked for `nodes` or `edges.node`. */
export const nodesQuery = (ctx: object, info: GraphQLResolveInfo, typeName: string) =>
  queryFromInfo({ context: ctx, info, typeName, paths: [["nodes"], ["edges", "node"]] });
