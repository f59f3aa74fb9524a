import { Prisma, type OfferingUserState } from "../generated/prisma/client.ts";

/** What a swap (a transition, a username pushed back) writes on the record. */
export interface SwapData {
  state?: OfferingUserState;
  modified: Date;
  username?: string | null;
  serviceProviderComment?: string;
  serviceProviderCommentUrl?: string;
}

const COLUMNS: Record<keyof SwapData, Prisma.Sql> = {
  state: Prisma.raw("state"),
  modified: Prisma.raw("modified"),
  username: Prisma.raw("username"),
  serviceProviderComment: Prisma.raw("service_provider_comment"),
  serviceProviderCommentUrl: Prisma.raw("service_provider_comment_url"),
};

const valueOf = (key: keyof SwapData, value: SwapData[keyof SwapData]) =>
  key === "state" ? Prisma.sql`${value}::"OfferingUserState"` : Prisma.sql`${value}`;

/**
 * The compare-and-swap of a change as SQL: `data` written on the record only while it is still in `from` (and, with
 * `username`, still has that username).
 */
export function swapStatement(id: string, from: OfferingUserState, data: SwapData, seen: { username?: string | null } = {}): Prisma.Sql {
  const sets = (Object.keys(COLUMNS) as Array<keyof SwapData>)
    .filter((key) => data[key] !== undefined)
    .map((key) => Prisma.sql`${COLUMNS[key]} = ${valueOf(key, data[key])}`);
  const sameUsername = seen.username === undefined ? Prisma.empty : Prisma.sql`AND username IS NOT DISTINCT FROM ${seen.username}::text`;
  return Prisma.sql`UPDATE offering_users SET ${Prisma.join(sets)} WHERE id = ${id}::uuid AND state = ${from}::"OfferingUserState" ${sameUsername} RETURNING id`;
}
