import { grantsOf } from "../auth/grants.ts";
import { type BillingType, Prisma } from "../generated/prisma/client.ts";
import type { Narrowing } from "../collections/contract.ts";
import type { Db } from "../platform/database/connect.ts";
import { parseUuid } from "../platform/ids.ts";
import { icontains, iexact } from "../platform/reads/text-match.ts";
import { count, findFirst } from "../platform/reads/sql/find.ts";

/**
 * The request as the resource contract's filters read it. Filters Prisma cannot state as a `where` (counts of related
 * rows, JSON keys, case-insensitive JSON text, role grants, which have no relation to their scope) are functions of
 * it: each reads what it needs first, then narrows by ids.
 */
export interface LookupEnv {
  db: Db;
  now: Date;
  /** The resources the list is drawn from (the viewer's), for lookups that ask what exists among them. */
  within: Prisma.ResourceWhereInput;
}

type Where = Prisma.ResourceWhereInput;

export const NOTHING: Where = { id: { in: [] } };

/** Django's `icontains`: `%`, `_` and `\` are plain characters. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/** The JSON columns a lookup may read; names are spliced into SQL, so only these. */
const JSON_COLUMNS = { backendMetadata: Prisma.raw("backend_metadata"), pluginOptions: Prisma.raw("plugin_options") } as const;

/** Resources whose backend metadata has `key` and whose text (`->>`, as Django's key transforms) contains `text`. */
async function metadataContains(db: Db, keys: readonly string[], text: string): Promise<string[]> {
  if (!keys.length) return [];
  const pattern = containsPattern(text);
  const conditions = keys.map((key) => Prisma.sql`${JSON_COLUMNS.backendMetadata} ->> ${key} ILIKE ${pattern}`);
  const rows = await db.$queryRaw<Array<{ id: string }>>`SELECT id FROM resources WHERE ${Prisma.join(conditions, " OR ")}`;
  return rows.map((row) => row.id);
}

export const metadataIContains =
  (key: string, text: string) =>
  async ({ db }: LookupEnv): Promise<Where> => ({ id: { in: await metadataContains(db, [key], text) } });

/** Django's `has_key`: the key is present, whatever its value (JSON null included). */
export const metadataHasKey =
  (key: string, present: boolean) =>
  async ({ db }: LookupEnv): Promise<Where> => {
    const rows = await db.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM resources WHERE ${JSON_COLUMNS.backendMetadata} -> ${key} IS NOT NULL`;
    const ids = rows.map((row) => row.id);
    return present ? { id: { in: ids } } : { id: { notIn: ids } };
  };

export const pluginOptionsHasKey =
  (key: string, present: boolean) =>
  async ({ db }: LookupEnv): Promise<Where> => {
    const rows = await db.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM offerings WHERE ${JSON_COLUMNS.pluginOptions} -> ${key} IS NOT NULL`;
    const ids = rows.map((row) => row.id);
    return present ? { offeringId: { in: ids } } : { offeringId: { notIn: ids } };
  };

/** Offerings with exactly `count` components (of one billing type, when given). */
const MAX_COMPONENT_COUNT = 2 ** 31 - 1;

export function componentCount(count: number, billingType?: BillingType): Narrowing<Where, LookupEnv> {
  // No offering has more components than a 32-bit count (and the database could not compare a larger one).
  if (!Number.isInteger(count) || count < 0 || count > MAX_COMPONENT_COUNT) return NOTHING;
  const counted = billingType ? { billingType } : {};
  if (count === 0) return { offering: { components: { none: counted } } };
  return async ({ db }) => {
    const groups = await db.offeringComponent.groupBy({
      by: ["offeringId"],
      where: counted,
      having: { offeringId: { _count: { equals: count } } },
    });
    return { offeringId: { in: groups.map((group) => group.offeringId) } };
  };
}

/** Offerings whose every component (and at least one) is of `billingType`. */
export const onlyBillingType = (billingType: BillingType, only: boolean): Where => {
  const offering = { components: { some: {}, every: { billingType } } };
  return only ? { offering } : { NOT: { offering } };
};

/** Waldur's get_connected_offerings, limited to shared offerings (all of ours): any current role on the offering. */
export const serviceManagerOf =
  (userIds: string[]) =>
  async ({ db, now }: LookupEnv): Promise<Where> => {
    const grants = await Promise.all(userIds.map((id) => grantsOf(db, id, now)));
    const [first, ...rest] = grants.map((own) => new Set(own.filter((g) => g.scopeType === "OFFERING").map((g) => g.scopeId)));
    const offerings = [...(first ?? [])].filter((id) => rest.every((set) => set.has(id)));
    return { offeringId: { in: offerings } };
  };

/** Waldur's filter_for_service_consumer: staff and support see all; others their projects' and customers' resources. */
export const visibleToUsername =
  (username: string) =>
  async ({ db, now }: LookupEnv): Promise<Where> => {
    const user = await findFirst(db, "user", { where: { username }, select: { id: true, isStaff: true, isSupport: true } });
    if (!user) return NOTHING;
    if (user.isStaff || user.isSupport) return {};
    const grants = await grantsOf(db, user.id, now);
    const ids = (type: "PROJECT" | "CUSTOMER") => grants.filter((g) => g.scopeType === type).map((g) => g.scopeId);
    return { OR: [{ projectId: { in: ids("PROJECT") } }, { project: { customerId: { in: ids("CUSTOMER") } } }] };
  };

const QUERY_METADATA_KEYS = ["external_ips", "internal_ips", "hypervisor_hostname", "router_fixed_ips", "external_address"];

/**
 * Waldur's `query`: a uuid that names a resource among those listed (or the backend object behind one) picks it
 * alone; otherwise the text is searched in the name, slug, backend id and the backend's addresses.
 */
export const searchQuery =
  (text: string) =>
  async ({ db, within }: LookupEnv): Promise<Where> => {
    const uuid = parseUuid(text);
    if (uuid) {
      for (const where of [{ id: uuid }, { scopeId: uuid }]) {
        if (await count(db, "resource", { AND: [within, where] })) return where;
      }
    }
    const byMetadata = await metadataContains(db, QUERY_METADATA_KEYS, text);
    return {
      OR: [{ name: icontains(text) }, { slug: icontains(text) }, { backendId: iexact(text) }, { id: { in: byMetadata } }],
    };
  };
