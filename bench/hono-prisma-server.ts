import { type Context, Hono } from "hono";
import { tokenDigest } from "../src/auth/secrets.ts";
import type { Prisma } from "../src/generated/prisma/client.ts";
import type { Db } from "../src/platform/database/connect.ts";
import { OFFERING_USERS_PATH, offeringUserJson, type OfferingUserRow } from "./offering-user-json.ts";

/**
 * The layer between the floor and the gateway: a minimal Hono app calling Prisma directly (same client, same pool,
 * relation joins) for the offering-user list and retrieve, with the same JSON — no GraphQL, no visibility rules,
 * no logging or metrics middleware.
 */
const DAY_MS = 86_400_000;

const OFFERING_USER_SELECT = {
  id: true, username: true, state: true, isRestricted: true, serviceProviderComment: true, serviceProviderCommentUrl: true,
  backendMetadata: true, created: true, modified: true, offeringId: true, userId: true,
  offering: {
    select: {
      name: true, customerId: true, customer: { select: { name: true } },
      termsOfService: {
        where: { isActive: true }, orderBy: { created: "desc" }, take: 1,
        select: { version: true, requiresReconsent: true, gracePeriodDays: true, activatedAt: true, created: true },
      },
    },
  },
  user: { select: { username: true, firstName: true, lastName: true, email: true } },
} satisfies Prisma.OfferingUserSelect;

const ORDER: Prisma.OfferingUserOrderByWithRelationInput[] = [{ username: { sort: "asc", nulls: "first" } }, { created: "asc" }, { id: "asc" }];

type Loaded = Prisma.OfferingUserGetPayload<{ select: typeof OFFERING_USER_SELECT }>;
type Consent = { userId: string; offeringId: string; version: string; revocationDate: Date | null };

function flatRow(ou: Loaded, consent: Consent | undefined): OfferingUserRow {
  const terms = ou.offering.termsOfService[0];
  return {
    id: ou.id, username: ou.username, state: ou.state, is_restricted: ou.isRestricted,
    service_provider_comment: ou.serviceProviderComment, service_provider_comment_url: ou.serviceProviderCommentUrl,
    backend_metadata: ou.backendMetadata, created: ou.created, modified: ou.modified, offering_id: ou.offeringId, user_id: ou.userId,
    offering_name: ou.offering.name, customer_id: ou.offering.customerId, customer_name: ou.offering.customer.name,
    user_username: ou.user.username, first_name: ou.user.firstName, last_name: ou.user.lastName, email: ou.user.email,
    terms_version: terms?.version ?? null,
    terms_requires_reconsent: terms?.requiresReconsent ?? null,
    grace_ends: terms ? new Date((terms.activatedAt ?? terms.created).getTime() + terms.gracePeriodDays * DAY_MS) : null,
    consent_version: consent?.version ?? null,
    consent_revoked: consent?.revocationDate ?? null,
  };
}

/** The rows as JSON, with each user's consent to the row's offering (one query for the whole page). */
async function toJson(db: Db, rows: Loaded[], origin: string) {
  const consents = rows.length
    ? await db.userOfferingConsent.findMany({
        where: { OR: rows.map((r) => ({ userId: r.userId, offeringId: r.offeringId })) },
        select: { userId: true, offeringId: true, version: true, revocationDate: true },
      })
    : [];
  const consentOf = new Map(consents.map((c) => [`${c.userId}/${c.offeringId}`, c]));
  return rows.map((row) => offeringUserJson(flatRow(row, consentOf.get(`${row.userId}/${row.offeringId}`)), origin));
}

async function authenticated(db: Db, c: Context) {
  const key = /^Token\s+([0-9a-f]{40})$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (!key) return false;
  const token = await db.authToken.findUnique({ where: { keyDigest: tokenDigest(key) }, select: { user: { select: { isActive: true } } } });
  return token?.user.isActive === true;
}

const invalidToken = (c: Context) => c.json({ detail: "Invalid token." }, 401);

export function createHonoPrismaApp(db: Db): Hono {
  const app = new Hono();
  app.get(OFFERING_USERS_PATH, async (c) => {
    if (!(await authenticated(db, c))) return invalidToken(c);
    const pageSize = Math.min(Number(c.req.query("page_size")) || 10, 300);
    const [total, rows] = await Promise.all([
      db.offeringUser.count(),
      db.offeringUser.findMany({ select: OFFERING_USER_SELECT, orderBy: ORDER, take: pageSize, skip: 0 }),
    ]);
    c.header("x-result-count", String(total));
    return c.json(await toJson(db, rows, new URL(c.req.url).origin));
  });
  app.get(`${OFFERING_USERS_PATH}:uuid/`, async (c) => {
    if (!(await authenticated(db, c))) return invalidToken(c);
    const row = await db.offeringUser.findUnique({ where: { id: c.req.param("uuid") }, select: OFFERING_USER_SELECT });
    if (!row) return c.json({ detail: "Not found." }, 404);
    const [json] = await toJson(db, [row], new URL(c.req.url).origin);
    return c.json(json);
  });
  app.notFound((c) => c.json({ detail: "Not found." }, 404));
  return app;
}
