import type { Context } from "../context.ts";
import type { Customer, Project, User } from "../generated/prisma/client.ts";
import type { ShownCustomerField, ShownProjectField, ShownUserField } from "./schema-shown-through.ts";
import { type DirectoryKind, ifVisible } from "./visibility.ts";

/**
 * Customers, projects and users are reached by nesting from objects their viewer may see (an offering's customer, an
 * order's project, an offering user's user). What identifies them is public there: uuid, name (username) and a
 * customer's slug (its name spelled for URLs), as the parents' own REST fields show them. Every other field is null
 * unless the viewer could GET the object over REST, or (`shownAs`) the record it was reached from shows that field of
 * it (src/directory/schema-shown-through.ts: an offering user its user's email, an order its project's description).
 */
const onlyIfVisible =
  <P extends { id: string }, Shown extends string = never>(kind: DirectoryKind, description: string) =>
  <T>(pick: (parent: P) => T, shownAs?: Shown) => ({
    nullable: true as const,
    description: shownAs ? `${description}, or the record it was reached from shows it` : description,
    resolve: (parent: P, _args: object, ctx: Context) => ifVisible(ctx, kind, parent, pick(parent), shownAs),
  });

/**
 * What a user and an offering always load (select mode), whatever the selection: their short columns. Their fields read
 * these as plain values, with none of plugin-prisma's per-row selection checks; a field that reads another column (a
 * user's password hash, an offering's creation time) declares it and loads it only when asked for.
 */
export const USER_COLUMNS = { id: true, username: true, email: true, firstName: true, lastName: true, isStaff: true, isSupport: true, isActive: true } as const;
export const OFFERING_COLUMNS = { id: true, name: true, slug: true, type: true, state: true, customerId: true, backendId: true } as const;
type LoadedUser = Pick<User, keyof typeof USER_COLUMNS>;

const USER_ONLY = "Null unless the viewer may read this user (GET /api/users/<uuid>/)";
export const userOnly = onlyIfVisible<LoadedUser, ShownUserField>("user", USER_ONLY);
/** `userOnly` for a column beyond USER_COLUMNS, loaded when the field is asked for. */
export const userColumnOnly = <K extends Exclude<keyof User, keyof LoadedUser>, T>(column: K, pick: (value: User[K]) => T) => ({
  nullable: true as const,
  description: USER_ONLY,
  select: { [column]: true } as Record<K, true>,
  resolve: (user: LoadedUser & Pick<User, K>, _args: object, ctx: Context) => {
    const loaded: Pick<User, K> = user;
    return ifVisible(ctx, "user", user, pick(loaded[column]));
  },
});
export const customerOnly = onlyIfVisible<Customer, ShownCustomerField>("customer", "Null unless the viewer may read this customer (GET /api/customers/<uuid>/)");
export const projectOnly = onlyIfVisible<Project, ShownProjectField>("project", "Null unless the viewer may read this project (GET /api/projects/<uuid>/)");
export const dateOnly = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);
