import { byOffering } from "../directory/offering-filters.ts";
import type { Context } from "../context.ts";
import type { OfferingUserState, Prisma } from "../generated/prisma/client.ts";
import { choiceFilter, defineContract, postgresNulls, universalFlag, valuesByLabel } from "../collections/contract.ts";
import { icontains } from "../platform/reads/text-match.ts";
import { byTimestamps } from "../collections/timestamp-filters.ts";
import { OFFERING_USER_STATES } from "./states.ts";
import { findMany } from "../platform/reads/sql/find.ts";
import { stuckWhere } from "./stuck.ts";
import { consentedToActiveTerms } from "./consent-filter.ts";

const STATE_BY_LABEL = valuesByLabel(OFFERING_USER_STATES);

/**
 * Waldur's runtime state: whether the account can be used. It is not stored here; the state says it: an account
 * pending account linking or additional validation is pending that, any other is Active.
 */
export const OFFERING_USER_RUNTIME_STATES = {
  ACTIVE: "Active",
  PENDING_ACCOUNT_LINKING: "Pending account linking",
  PENDING_ADDITIONAL_VALIDATION: "Pending additional validation",
} as const;
export type OfferingUserRuntimeState = keyof typeof OFFERING_USER_RUNTIME_STATES;

const PENDING_STATES = ["PENDING_ACCOUNT_LINKING", "PENDING_ADDITIONAL_VALIDATION"] as const satisfies OfferingUserRuntimeState[];

export const runtimeStateOf = (state: OfferingUserState): OfferingUserRuntimeState =>
  PENDING_STATES.find((pending) => pending === state) ?? "ACTIVE";

const inRuntimeState = (runtimeState: OfferingUserRuntimeState): Prisma.OfferingUserWhereInput =>
  runtimeState === "ACTIVE" ? { state: { notIn: [...PENDING_STATES] } } : { state: runtimeState };

/**
 * The offering users of the users named `username` in any case, as Django's iexact compares (UPPER(a) = UPPER(b), on
 * users_username_upper_idx), read first: the list's page and its count would each match the users again.
 */
async function ofUsername(ctx: Context, username: string): Promise<Prisma.OfferingUserWhereInput> {
  const users = await ctx.db.$queryRaw<Array<{ id: string }>>`SELECT id::text AS id FROM users WHERE UPPER(username) = UPPER(${username})`;
  return { userId: { in: users.map((user) => user.id) } };
}

/** Nothing matches it: a condition on something no record here has. */
const NOTHING: Prisma.OfferingUserWhereInput = { id: { in: [] } };

export const OFFERING_USER_CONTRACT = defineContract<Prisma.OfferingUserWhereInput, Prisma.OfferingUserOrderByWithRelationInput, Context>()({
  filters: {
    ...byOffering((offering) => ({ offering }), NOTHING),
    state: choiceFilter({
      rest: "state",
      labels: STATE_BY_LABEL,
      enumName: "OfferingUserState",
      description: "Any of these states",
      where: (states) => ({ state: { in: states } }),
    }),
    userUuid: { kind: "uuids", rest: { user_uuid: "uuid" }, where: (ids) => ({ userId: { in: ids } }) },
    username: { kind: "text", rest: "username", description: "Exact, case-sensitive", where: (username) => ({ username }) },
    userUsername: {
      kind: "text",
      rest: "user_username",
      description: "Exact, case-insensitive",
      where: (username) => (ctx) => ofUsername(ctx, username),
    },
    ...byTimestamps({ specSpellings: true }),
    isRestricted: { kind: "boolean", rest: "is_restricted", where: (isRestricted) => ({ isRestricted }) },
    runtimeState: choiceFilter({
      rest: "runtime_state",
      labels: Object.fromEntries(
        Object.entries(OFFERING_USER_RUNTIME_STATES).map(([value, label]) => [label, value as OfferingUserRuntimeState]),
      ),
      enumName: "OfferingUserRuntimeState",
      description: "Any of these runtime states (Active: any state but the two pending ones)",
      where: (runtimeStates) => ({ OR: runtimeStates.map(inRuntimeState) }),
    }),
    hasConsent: {
      kind: "boolean",
      rest: "has_consent",
      description: "The user holds an unrevoked consent to the offering (any version)",
      where: (hasConsent) => ({ hasConsent }),
    },
    hasCompleteProfile: {
      kind: "boolean",
      rest: "has_complete_profile",
      description: "No offering here requires profile attributes, so every profile is complete",
      where: universalFlag(NOTHING),
    },
    consentedToActiveTerms: {
      kind: "boolean",
      rest: "consented_to_active_terms",
      description: "Holds a consent that counts under the offering's active terms (false: of the offerings with active terms, those who do not)",
      where: (consented) => (ctx) => consentedToActiveTerms(ctx, consented),
    },
    offeringHasActiveTos: {
      kind: "boolean",
      rest: "offering_has_active_tos",
      description: "The offering has active terms of service",
      where: (has) => ({ offeringHasActiveTerms: has }),
    },
    stuck: {
      kind: "boolean",
      rest: "stuck",
      description: "Held in Creating, Error creating or Pending additional validation beyond its configured threshold",
      where: (stuck) => async (ctx) => stuckWhere(stuck, ctx.config.offeringUserStuckAfterMinutes, ctx.now()),
    },
    query: {
      kind: "text",
      rest: "query",
      description: "Searches username, offering name, user name and email",
      where: (text) => async (ctx) => {
        const contains = icontains(text.trim());
        const offerings = await findMany(ctx.db, "offering", { where: { name: contains }, select: { id: true } });
        return {
          OR: [
            { username: contains },
            { userUsername: contains },
            { userFirstName: contains },
            { userLastName: contains },
            { userEmail: contains },
            ...(offerings.length ? [{ offeringId: { in: offerings.map((offering) => offering.id) } }] : []),
          ],
        };
      },
    },
  },
  orderings: {
    created: (direction) => ({ created: direction }),
    modified: (direction) => ({ modified: direction }),
    state_changed: (direction) => ({ stateChangedAt: direction }),
    username: (direction) => ({ username: postgresNulls(direction) }),
    user_first_name: (direction) => ({ userFirstName: direction }),
    user_last_name: (direction) => ({ userLastName: direction }),
  },
  defaultOrder: ["username"],
  tiebreak: (direction) => [{ created: direction }, { id: direction }],
});
