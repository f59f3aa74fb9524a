import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { commaList, defineContract, emptyField, type Narrowing } from "../collections/contract.ts";
import { icontains, iexact } from "../platform/reads/text-match.ts";
import { grantsInForce } from "./grants-in-force.ts";
import { findMany } from "../platform/reads/sql/find.ts";

type UserWhere = Prisma.UserWhereInput;
type UserOrder = Prisma.UserOrderByWithRelationInput;

const NOTHING: UserWhere = { id: { in: [] } };

/** What Waldur's users always have for the registration method here: every account is made through the API. */
export const REGISTRATION_METHOD = "default";

const likeLiteral = (text: string) => text.replace(/[\\%_]/g, "\\$&");
const istartsWith = (text: string) => ({ startsWith: likeLiteral(text), mode: "insensitive" as const });
const iendsWith = (text: string) => ({ endsWith: likeLiteral(text), mode: "insensitive" as const });

/**
 * Waldur matches `full_name` ("first last", trimmed) as a substring: the text lies within one of the names, or spans
 * the space between them (its part before a space ends the first name, the rest starts the last name).
 */
export function fullNameContains(text: string): UserWhere {
  const spans = [...text.matchAll(/ /g)].map(({ index }): UserWhere => {
    const [before, after] = [text.slice(0, index), text.slice(index + 1)];
    return {
      AND: [
        { firstName: before ? iendsWith(before) : { not: "" } },
        { lastName: after ? istartsWith(after) : { not: "" } },
      ],
    };
  });
  return { OR: [{ firstName: icontains(text) }, { lastName: icontains(text) }, ...spans] };
}

/** Users holding, in force, one of `roles` on any object of one kind. */
const holdingRoles =
  (scopeType: "CUSTOMER" | "PROJECT") =>
  (value: string): Narrowing<UserWhere, Context> =>
  async (ctx) => ({ roles: { some: grantsInForce(ctx.now(), scopeType, { roles: commaList(value) }) } });

/** A field we do not store: empty for every user (`civil_number` is null, which no value equals). */
const unstored = <R extends string>(rest: R) => ({
  kind: "text" as const,
  rest,
  description: "Not stored here: matches only the empty value",
  where: emptyField(NOTHING),
});

export const USER_CONTRACT = defineContract<UserWhere, UserOrder | UserOrder[], Context>()({
  filters: {
    username: { kind: "text", rest: "username", description: "Exact, case-sensitive", where: (username) => ({ username }) },
    usernameList: {
      kind: "text",
      rest: "username_list",
      description: "Comma-separated usernames, each exact",
      where: (list) => ({ username: { in: commaList(list) } }),
    },
    email: { kind: "text", rest: "email", description: "Exact, case-insensitive", where: (email) => ({ email: iexact(email) }) },
    fullName: { kind: "text", rest: "full_name", description: "Substring of the full name, case-insensitive", where: fullNameContains },
    query: {
      kind: "text",
      rest: "query",
      description: "Substring of the first name, last name, username or email",
      where: (text) => {
        const contains = icontains(text);
        return { OR: [{ username: contains }, { firstName: contains }, { lastName: contains }, { email: contains }] };
      },
    },
    userKeyword: {
      kind: "text",
      rest: "user_keyword",
      description: "Substring of the full name, email or username",
      where: (text) => ({ OR: [fullNameContains(text), { email: icontains(text) }, { username: icontains(text) }] }),
    },
    isActive: { kind: "boolean", rest: "is_active", where: (isActive) => ({ isActive }) },
    isStaff: { kind: "boolean", rest: "is_staff", where: (isStaff) => ({ isStaff }) },
    isSupport: { kind: "boolean", rest: "is_support", where: (isSupport) => ({ isSupport }) },
    dateJoinedAfter: { kind: "after", rest: "date_joined", description: "Joined at or after", where: (gte) => ({ created: { gte } }) },
    modifiedAfter: { kind: "after", rest: "modified", description: "Modified at or after", where: (gte) => ({ modified: { gte } }) },
    agreementDateAfter: {
      kind: "after",
      rest: "agreement_date",
      description: "Agreed to the policy at or after (no agreement is recorded here: matches nobody)",
      where: () => NOTHING,
    },
    registrationMethod: {
      kind: "text",
      rest: "registration_method",
      description: `Exact; every user's is "${REGISTRATION_METHOD}"`,
      where: (method) => (method === REGISTRATION_METHOD ? {} : NOTHING),
    },
    civilNumber: unstored("civil_number"),
    description: unstored("description"),
    jobTitle: unstored("job_title"),
    nativeName: unstored("native_name"),
    organization: unstored("organization"),
    phoneNumber: unstored("phone_number"),
    customerUuid: {
      kind: "uuids",
      rest: { customer_uuid: "uuid" },
      description: "Holding a role in force on the customer or one of its projects",
      where: (ids) => async (ctx) => {
        const projects = await findMany(ctx.db, "project", { where: { customerId: { in: ids } }, select: { id: true } });
        const projectIds = projects.map((project) => project.id);
        return {
          roles: {
            some: { OR: [grantsInForce(ctx.now(), "CUSTOMER", { scopeIds: ids }), grantsInForce(ctx.now(), "PROJECT", { scopeIds: projectIds })] },
          },
        };
      },
    },
    projectUuid: {
      kind: "uuids",
      rest: { project_uuid: "uuid" },
      description: "Holding a role in force on the project",
      where: (ids) => async (ctx) => ({ roles: { some: grantsInForce(ctx.now(), "PROJECT", { scopeIds: ids }) } }),
    },
    organizationRoles: {
      kind: "text",
      rest: "organization_roles",
      description: "Comma-separated role names (CUSTOMER.OWNER, …): holding one of them in force on some customer",
      where: holdingRoles("CUSTOMER"),
    },
    projectRoles: {
      kind: "text",
      rest: "project_roles",
      description: "Comma-separated role names (PROJECT.ADMIN, …): holding one of them in force on some project",
      where: holdingRoles("PROJECT"),
    },
  },
  orderings: {
    username: (direction) => ({ username: direction }),
    email: (direction) => ({ email: direction }),
    full_name: (direction) => [{ firstName: direction }, { lastName: direction }],
    is_active: (direction) => ({ isActive: direction }),
    is_staff: (direction) => ({ isStaff: direction }),
    is_support: (direction) => ({ isSupport: direction }),
    // Equal on every user here: the order falls to the tiebreak.
    description: () => [],
    job_title: () => [],
    native_name: () => [],
    organization: () => [],
    phone_number: () => [],
    registration_method: () => [],
  },
  defaultOrder: ["username"],
  tiebreak: [{ username: "asc" }],
});
