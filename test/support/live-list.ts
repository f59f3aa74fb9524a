import { expect } from "vitest";
import type { TestApp } from "./app.ts";

/**
 * A client paging a GraphQL connection while the list changes (src/graphql/cursors*.test.ts): the pages it reads,
 * and what it must have seen given the changes made between them.
 */

export interface Page {
  totalCount: number;
  nodes: Array<{ uuid: string }>;
  edges: Array<{ cursor: string; node: { uuid: string } }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

export type Variables = Record<string, unknown>;
export type Direction = "forward" | "backward";

const SELECTION = `totalCount nodes { uuid } edges { cursor node { uuid } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;

/** A document reading the connection `field` (its filter and order types named) as `list`, every paging argument a variable. */
export const connectionDocument = (field: string, filterType: string, orderType: string) =>
  `query($first: Int, $after: String, $last: Int, $before: String, $offset: Int, $filter: ${filterType}, $orderBy: ${orderType}) {
    list: ${field}(first: $first, after: $after, last: $last, before: $before, offset: $offset, filter: $filter, orderBy: $orderBy) { ${SELECTION} } }`;

export const OFFERING_USERS = connectionDocument("offeringUsers", "OfferingUserFilter", "[OfferingUserOrder!]");
export const ORDERS = connectionDocument("orders", "OrderFilter", "[OrderOrder!]");
export const EVENTS = connectionDocument("events", "EventFilter", "EventOrder");

export const uuids = (p: Page) => p.nodes.map((node) => node.uuid);

/** The uuid that follows `uuid` in `list`, in the direction of a walk. */
export const nextOf = (list: string[], uuid: string, direction: Direction) => list[list.indexOf(uuid) + (direction === "forward" ? 1 : -1)];

/** Reads pages of connections as the viewer of `token`. */
export function pager(t: TestApp, token: string) {
  const gql = (document: string, variables: Variables) => t.gql<{ list: Page }>(document, variables, token);

  async function page(document: string, variables: Variables): Promise<Page> {
    const res = await gql(document, variables);
    expect(res.errors).toBeUndefined();
    return res.data!.list;
  }

  const wholeList = async (document: string, variables: Variables) => uuids(await page(document, { ...variables, first: 300 }));

  /**
   * Pages through a list `size` rows at a time, forward or backward, calling `between` after each page but the last;
   * answers the uuids seen, in the list's order.
   */
  async function walk(document: string, variables: Variables, direction: Direction, size: number, between: (index: number, p: Page) => Promise<void>) {
    const pages: string[][] = [];
    let cursor: string | null = null;
    for (let index = 0; ; index++) {
      const p = await page(document, direction === "forward" ? { ...variables, first: size, after: cursor } : { ...variables, last: size, before: cursor });
      expect(p.edges.map((edge) => edge.node.uuid)).toEqual(uuids(p));
      expect(p.nodes.length).toBeLessThanOrEqual(size);
      pages.push(uuids(p));
      if (!(direction === "forward" ? p.pageInfo.hasNextPage : p.pageInfo.hasPreviousPage)) break;
      expect(index, "the walk ends").toBeLessThan(50);
      await between(index, p);
      cursor = direction === "forward" ? p.pageInfo.endCursor : p.pageInfo.startCursor;
    }
    return (direction === "forward" ? pages : pages.reverse()).flat();
  }

  return { gql, page, wholeList, walk };
}

/** The changes made to a list while a client walks it, and what the walk must then have seen. */
export class LiveList {
  readonly stayed = new Set<string>();
  readonly insertedAhead: string[] = [];
  readonly insertedBehind: string[] = [];
  readonly deletedUnseen: string[] = [];

  constructor(initial: string[], private readonly remove: (uuid: string) => Promise<unknown>) {
    initial.forEach((uuid) => this.stayed.add(uuid));
  }

  /** Deletes a row the walk has seen already (its cursor's row, say). */
  async deleteSeen(uuid: string) {
    this.stayed.delete(uuid);
    await this.remove(uuid);
  }

  /** Deletes a row the walk has yet to reach. */
  async deleteAhead(uuid: string) {
    this.stayed.delete(uuid);
    if (this.insertedAhead.includes(uuid)) this.insertedAhead.splice(this.insertedAhead.indexOf(uuid), 1);
    this.deletedUnseen.push(uuid);
    await this.remove(uuid);
  }

  expectSeenBy(seen: string[], finalList: string[]) {
    expect(new Set(seen).size, "no row is repeated").toBe(seen.length);
    expect(seen, "no row that stayed in the list is skipped, no row inserted ahead is missed").toEqual(expect.arrayContaining([...this.stayed, ...this.insertedAhead]));
    for (const uuid of [...this.insertedBehind, ...this.deletedUnseen]) expect(seen, "rows inserted behind or deleted ahead are not seen").not.toContain(uuid);
    const [inFinal, inSeen] = [new Set(finalList), new Set(seen)];
    expect(seen.filter((uuid) => inFinal.has(uuid)), "in the list's order").toEqual(finalList.filter((uuid) => inSeen.has(uuid)));
  }
}
