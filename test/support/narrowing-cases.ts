import { CUTOFF, type SplitData } from "./split-data.ts";

export { CUTOFF };

/**
 * The vocabulary of the cases that show every REST filter narrowing its list (rest-adapter/filters-narrow.test.ts):
 * each domain declares its lists' cases beside its contracts, in `src/<domain>/filters-narrow.cases.ts`, on the data
 * of split-data.ts.
 */

type Value = string | ((d: SplitData) => string);
export interface Case {
  value: Value;
  /** By design it matches nothing on any data here (an unmodelled concept, or the `false` of a universal flag). */
  empties?: true;
  /** It reads the viewer's roles: listed as a user who holds some, not as staff. */
  asViewer?: true;
  /** It cannot narrow on any data here (why): the list stays the same. */
  inert?: string;
}

/** One list's cases, a value for each REST parameter its contract reads, and how the list is reached. */
export interface ListCases {
  parameters: Record<string, Case>;
  /** A list under one object: the object its path's `:uuid` names. */
  parent?: (d: SplitData) => string;
  /**
   * An action whose filters, as in Waldur, pick the object the path names out of this list (its own list is always
   * empty): a filter that leaves the object out of that list makes the action answer 404.
   */
  picksFrom?: string;
}

/** A domain's lists, by REST path, with their cases: what its `filters-narrow.cases.ts` exports as `NARROWING_CASES`. */
export type NarrowingCases = Record<string, ListCases>;

/** Keeps some items and leaves out others. */
export const splits = (value: Value): Case => ({ value });
export const splitsAsViewer = (value: Value): Case => ({ value, asViewer: true });
export const empties = (value: Value): Case => ({ value, empties: true });
export const inert = (value: Value, reason: string): Case => ({ value, inert: reason });

/** A well-formed uuid of nothing: the value of filters on concepts that are not modelled. */
export const NO_SUCH_UUID = "0123456789ab4def8123456789abcdef";
export const unstored = empties("x");
export const unmodelled = empties(NO_SUCH_UUID);
export const cutoff = splits(CUTOFF);

/** The rows most cases split on (see split-data.ts). */
type Row = (d: SplitData) => { uuid: string };
export const storage: Row = (d) => d.storage;
export const secondProvider: Row = (d) => d.secondProvider;
export const vintageLab: Row = (d) => d.vintageLab;
export const vintageProject: Row = (d) => d.vintageProject;
export const worldProject: Row = (d) => d.world.project;
export const alice: Row = (d) => d.alice;
export const projectMember: Row = (d) => d.world.users.projectMember;
export const offeringManager: Row = (d) => d.world.users.offeringManager;
export const bucket: Row = (d) => d.resources.bucket;
export const vintageRun: Row = (d) => d.resources.vintageRun;

export const uuidOf = (pick: Row) => splits((d) => pick(d).uuid);
export const urlOf = (collection: string) => (pick: Row) => splits((d) => d.url(collection, pick(d)));
export const customerUrl = urlOf("customers");
export const userUrl = urlOf("users");
export const offeringUrl = urlOf("marketplace-provider-offerings");
export const resourceUrl = urlOf("marketplace-provider-resources");
