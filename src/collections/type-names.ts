import type PrismaTypes from "../generated/pothos-types.ts";
import type { CollectionContract } from "./contract.ts";

/** An object type of the graph that a global id names: a Prisma model's node (`Order`, `OfferingUser`, …). */
export type NodeTypeName = keyof PrismaTypes;

/**
 * What a list's filter input and order enum are named after (`<name>Filter`, `<name>Order`): its node's type, but for
 * the offerings' terms of service, whose inputs keep Waldur's shorter name.
 */
export type CollectionName = NodeTypeName | "TermsOfService";

/**
 * The names a collection's GraphQL declaration (`collectionFields`) gave it, which its REST list and retrieve run:
 * its inputs' name, its contract, its list field and its record field.
 */
export interface CollectionNames<C extends CollectionContract = CollectionContract> {
  name: string;
  contract: C;
  listField: string;
  recordField?: string;
}
