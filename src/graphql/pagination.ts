import type { ObjectRef } from "@pothos/core";
import { queryFromInfo } from "@pothos/plugin-prisma";
import { cursorToOffset, offsetForArgs, offsetToCursor } from "@pothos/plugin-relay";
import type { GraphQLResolveInfo } from "graphql";
import { fieldError } from "../platform/errors.ts";
import { type Connection, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page, type Slice } from "../platform/paginate.ts";
import { builder, type Types } from "./builder.ts";

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  offset?: number | null;
}

function positionOf(argument: "after" | "before", cursor: string): number {
  try {
    return cursorToOffset(cursor);
  } catch {
    throw fieldError(argument, "Invalid cursor.");
  }
}

const nonNegative = (args: PageArgs) => {
  for (const name of ["first", "last", "offset"] as const) {
    const value = args[name];
    if (value != null && value < 0) throw fieldError(name, "Must be zero or more.");
  }
};

/**
 * Relay's slicing (`first`/`after` forward, `last`/`before` backward, both narrowing the list as the Relay spec says),
 * plus `offset` for positional pages. `last` without `before` counts from the end, so it waits for the list's length.
 */
export function toPage(args: PageArgs): Page {
  nonNegative(args);
  const after = args.after ? positionOf("after", args.after) : args.offset ? args.offset - 1 : null;
  const before = args.before ? positionOf("before", args.before) : null;
  const relayArgs = {
    first: args.first ?? (args.last == null ? DEFAULT_PAGE_SIZE : null),
    last: args.last,
    after: after == null || after < 0 ? null : offsetToCursor(after),
    before: before == null ? null : offsetToCursor(before),
  };
  const slice = (totalCount?: number): Slice => {
    const { offset, expectedSize } = offsetForArgs({ args: relayArgs, totalCount, defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE });
    return { skip: offset, take: expectedSize };
  };
  return args.last != null && before == null ? (totalCount) => slice(totalCount) : slice();
}

export const pageArgs = builder.args((t) => ({
  first: t.int({ description: `Page size from the start (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})` }),
  after: t.string({ description: "Cursor of the last item of the previous page" }),
  last: t.int({ description: `Page size from the end (at most ${MAX_PAGE_SIZE})` }),
  before: t.string({ description: "Cursor of the first item of the next page" }),
  offset: t.int({ description: "Position of the first item (alternative to `after`)" }),
}));

/** The Relay shape of one slice: edges whose cursors are positions, so REST pages and GraphQL cursors agree. */
export async function relayConnection<T>(page: Connection<T> | Promise<Connection<T>>) {
  const { totalCount, nodes, skip } = await page;
  return {
    totalCount,
    edges: nodes.map((node, i) => ({ node, cursor: offsetToCursor(skip + i) })),
    pageInfo: {
      hasNextPage: skip + nodes.length < totalCount,
      hasPreviousPage: skip > 0,
      startCursor: nodes.length ? offsetToCursor(skip) : null,
      endCursor: nodes.length ? offsetToCursor(skip + nodes.length - 1) : null,
    },
  };
}

/** `<Name>Connection` (with `totalCount` and `nodes`) and `<Name>Edge`, from plugin-relay. */
export function connectionType<T>(name: string, node: ObjectRef<Types, T>) {
  return builder.connectionObject(
    {
      type: node,
      name: `${name}Connection`,
      fields: (t) => ({ totalCount: t.exposeInt("totalCount", { description: "Items in the whole list, under the same filter" }) }),
    },
    { name: `${name}Edge` },
  );
}

/** What plugin-prisma must load for the nodes of a connection, whether the client asked for `nodes` or `edges.node`. */
export const nodesQuery = (ctx: object, info: GraphQLResolveInfo, typeName: string) =>
  queryFromInfo({ context: ctx, info, typeName, paths: [["nodes"], ["edges", "node"]] });
