import type { ObjectRef } from "@pothos/core";
import { queryFromInfo } from "@pothos/plugin-prisma";
import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from "graphql";
import { fieldError } from "../platform/errors.ts";
import { type Connection, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../platform/reads/paginate.ts";
import type { Deferred, Page } from "../platform/reads/page-requests.ts";
import { builder, type Types } from "./builder.ts";

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  offset?: number | null;
}

/** Arguments outside a cursor's scope: the paging ones, and the order (which the cursor's key names itself). */
const OUTSIDE_SCOPE = new Set(["first", "after", "last", "before", "offset", "orderBy"]);

/** A value written with its keys sorted and without null ones, so that one filter written in two ways is one scope. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  const entries = Object.entries(value).filter(([, inner]) => inner != null);
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, inner]) => [key, canonical(inner)]));
}

/** A connection field's arguments besides its order and paging (its filter, a view, a parent's uuid): what its cursors belong to. */
const scopeOf = (args: object) => JSON.stringify(canonical(Object.fromEntries(Object.entries(args).filter(([name]) => !OUTSIDE_SCOPE.has(name)))));

function checked(args: PageArgs) {
  for (const name of ["first", "last", "offset"] as const) {
    const value = args[name];
    if (value != null && value < 0) throw fieldError(name, "Must be zero or more.");
  }
  if (args.first != null && args.last != null) throw fieldError("last", "Give first or last, not both.");
  if (args.offset != null) {
    for (const name of ["after", "before", "last"] as const) if (args[name] != null) throw fieldError("offset", `A page by position takes no ${name}.`);
  }
}

/** The fields of a connection that give cursors, by the path to them. */
const CURSOR_FIELDS: Record<string, readonly string[]> = { edges: ["cursor"], pageInfo: ["startCursor", "endCursor"] };

/** The selection sets of the fields of `set` named one of `names`, through fragments (`@skip`/`@include` read as selected). */
function fieldsNamed(set: SelectionSetNode | undefined, names: readonly string[], info: GraphQLResolveInfo): Array<SelectionSetNode | undefined> {
  return (set?.selections ?? []).flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return names.includes(selection.name.value) ? [selection.selectionSet] : [];
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
    return fieldsNamed(fragment?.selectionSet, names, info);
  });
}

/** Whether the connection field being resolved selects a cursor (an edge's, or the page's start or end). */
export function selectsCursors(info: GraphQLResolveInfo): boolean {
  const within = (sets: Array<SelectionSetNode | undefined>, names: readonly string[]) => sets.flatMap((set) => fieldsNamed(set, names, info));
  const connections = info.fieldNodes.map((node) => node.selectionSet);
  return Object.entries(CURSOR_FIELDS).some(([parent, names]) => within(within(connections, [parent]), names).length > 0);
}

/**
 * The page a connection field's arguments ask for: `first`/`after` forward and `last`/`before` backward (both cursors
 * narrowing the list as the Relay spec says), by keyset; or `offset` (with `first`), by position. `args` are all the
 * field's arguments: the cursors belong to the others. `cursors`: whether the client reads the rows' cursors.
 */
export function toPage(args: PageArgs, cursors = true): Page {
  checked(args);
  const scope = scopeOf(args);
  const size = (value: number | null | undefined) => Math.min(value ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  if (args.offset != null) return { offset: args.offset, size: size(args.first), scope };
  const backward = args.last != null;
  return {
    size: size(backward ? args.last : args.first),
    backward,
    ...(args.after ? { after: args.after } : {}),
    ...(args.before ? { before: args.before } : {}),
    scope,
    ...(cursors ? {} : { cursors }),
  };
}

export const pageArgs = builder.args((t) => ({
  first: t.int({ description: `Page size from the start or after \`after\` (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})` }),
  after: t.string({ description: "Cursor of the last item of the previous page: the page starts after that item, even once it is gone" }),
  last: t.int({ description: `Page size from the end or before \`before\` (at most ${MAX_PAGE_SIZE})` }),
  before: t.string({ description: "Cursor of the first item of the next page: the page ends before that item, even once it is gone" }),
  offset: t.int({
    description: "Position of the first item, with `first` (not with cursors): pages by position repeat or skip items when items are added or removed before them",
  }),
}));

/** A deferred value, read once however often it is asked for. */
function once<T>(read: Deferred<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= Promise.resolve().then(read));
}

/** The Relay shape of one page. Cursors and the far end's `hasNextPage`/`hasPreviousPage` are read only when selected. */
export async function relayConnection<T>(page: Connection<T> | Promise<Connection<T>>) {
  const { totalCount, nodes, ...rest } = await page;
  const [cursors, hasNextPage, hasPreviousPage] = [once(rest.cursors), once(rest.hasNextPage), once(rest.hasPreviousPage)];
  const cursorAt = async (i: number) => (await cursors())[i];
  const edgesOf = () =>
    nodes.map((node, i) => ({
      node,
      get cursor() {
        return cursorAt(i);
      },
    }));
  // Built when selected: a page that asks for `nodes` (REST's, most frontends') has no use for them.
  let edges: ReturnType<typeof edgesOf> | undefined;
  return {
    totalCount,
    get edges() {
      return (edges ??= edgesOf());
    },
    pageInfo: {
      get hasNextPage() {
        return hasNextPage();
      },
      get hasPreviousPage() {
        return hasPreviousPage();
      },
      get startCursor() {
        return nodes.length ? cursorAt(0) : null;
      },
      get endCursor() {
        return nodes.length ? cursorAt(nodes.length - 1) : null;
      },
    },
  };
}

/** A page as relayConnection gives it, its deferred parts as promises. */
export type RelayPage<T> = Awaited<ReturnType<typeof relayConnection<T>>>;

/** `<Name>Connection` (with `totalCount` and `nodes`) and `<Name>Edge`, from plugin-relay. */
export function connectionType<T>(name: string, node: ObjectRef<Types, T>): ObjectRef<Types, RelayPage<T>> {
  const connection = builder.connectionObject(
    {
      type: node,
      name: `${name}Connection`,
      fields: (t) => ({ totalCount: t.exposeInt("totalCount", { description: "Items in the whole list, under the same filter" }) }),
    },
    { name: `${name}Edge` },
  );
  // plugin-relay types a page's cursors and page info as values; its fields read them as properties, and graphql-js
  // waits for the promises relayConnection's getters give in their place.
  return connection as unknown as ObjectRef<Types, RelayPage<T>>;
}

/** What plugin-prisma must load for the nodes of a connection, whether the client asked for `nodes` or `edges.node`. */
export const nodesQuery = (ctx: object, info: GraphQLResolveInfo, typeName: string) =>
  queryFromInfo({ context: ctx, info, typeName, paths: [["nodes"], ["edges", "node"]] });
