import type PrismaTypes from "../generated/pothos-types.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { CollectionContract } from "./contract.ts";

/** An object type of the graph that a global id names: a Prisma model's node (`Order`, `OfferingUser`, …). */
export type NodeTypeName = keyof PrismaTypes;

/** `name` as a node's type name, if it is one (a Prisma model's): a collection of another type has no global ids. */
export const nodeTypeName = (name: string): NodeTypeName | undefined => (isNodeTypeName(name) ? name : undefined);

const isNodeTypeName = (name: string): name is NodeTypeName => Object.hasOwn(Prisma.ModelName, name);

/**
 * What a list's filter input and order enum are named after (`<name>Filter`, `<name>Order`): its node's type, but for
 * the offerings' terms of service, whose inputs keep Waldur's shorter name.
 */
export type CollectionName = NodeTypeName | "TermsOfService";

/**
 * The names a collection's GraphQL declaration (`collectionFields`) gave it, which its REST list, retrieve and delete
 * run: its inputs' name, its contract, its list field, its record field and its node's type name (which its global ids
 * and its delete mutation, `delete<Node>`, are named by), when the node is a model's.
 */
export interface CollectionNames<C extends CollectionContract = CollectionContract> {
  name: string;
  contract: C;
  listField: string;
  recordField?: string;
  typeName?: NodeTypeName;
}
