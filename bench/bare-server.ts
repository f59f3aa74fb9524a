import http from "node:http";
import type pg from "pg";
import { tokenDigest } from "../src/auth/secrets.ts";
import { stateLabel } from "../src/offering-users/states.ts";

/**
 * The floor: the same page of offering users, read with `pg` and serialised by hand, with the same database
 * round trips the gateway makes (token lookup, then count and page in parallel) and no framework at all.
 */
const AUTH_SQL = `SELECT u.id, u.is_active FROM auth_tokens t JOIN users u ON u.id = t.user_id WHERE t.key_digest = $1`;
const COUNT_SQL = `SELECT count(*)::int AS total FROM offering_users`;
const PAGE_SQL = `
  SELECT ou.id, ou.username, ou.state, ou.is_restricted, ou.service_provider_comment, ou.service_provider_comment_url,
         ou.backend_metadata, ou.created, ou.modified, ou.offering_id, ou.user_id,
         o.name AS offering_name, o.customer_id, c.name AS customer_name,
         u.username AS user_username, u.first_name, u.last_name, u.email,
         t.version AS terms_version, t.requires_reconsent AS terms_requires_reconsent,
         coalesce(t.activated_at, t.created) + make_interval(days => t.grace_period_days) AS grace_ends,
         uc.version AS consent_version, uc.revocation_date AS consent_revoked
    FROM offering_users ou
    JOIN offerings o ON o.id = ou.offering_id
    JOIN customers c ON c.id = o.customer_id
    JOIN users u ON u.id = ou.user_id
    LEFT JOIN LATERAL (SELECT * FROM offering_terms_of_service ts WHERE ts.offering_id = ou.offering_id AND ts.is_active
                        ORDER BY ts.created DESC LIMIT 1) t ON true
    LEFT JOIN user_offering_consents uc ON uc.user_id = ou.user_id AND uc.offering_id = ou.offering_id
   ORDER BY ou.username ASC NULLS FIRST, ou.created ASC, ou.id ASC
   LIMIT $1 OFFSET $2`;

const hex = (uuid: string) => uuid.replaceAll("-", "");

/** As src/graphql/scalars.ts renders DateTime (not imported: that module pulls in the whole schema builder). */
const formatDateTime = (date: Date) => {
  const iso = date.toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : `${iso.slice(0, -1)}000Z`;
};

/** As src/terms-of-service/consent-status.ts decides it (restated here: the floor uses no project code). */
function consent(row: any): { has: boolean; reconsent: boolean } {
  if (row.terms_version === null) return { has: false, reconsent: false };
  if (row.consent_version === null || row.consent_revoked !== null) return { has: false, reconsent: false };
  if (row.consent_version === row.terms_version || !row.terms_requires_reconsent) return { has: true, reconsent: false };
  const grace = Date.now() < row.grace_ends.getTime();
  return { has: grace, reconsent: true };
}

/** The fields of rest-adapter/fragments.ts OfferingUserRest, in the same order. */
function serialise(row: any, base: string) {
  const { has, reconsent } = consent(row);
  return {
    url: `${base}/api/marketplace-offering-users/${hex(row.id)}/`,
    uuid: hex(row.id),
    username: row.username,
    state: stateLabel(row.state),
    offering: `${base}/api/marketplace-provider-offerings/${hex(row.offering_id)}/`,
    offering_uuid: hex(row.offering_id),
    offering_name: row.offering_name,
    user: `${base}/api/users/${hex(row.user_id)}/`,
    user_uuid: hex(row.user_id),
    user_username: row.user_username,
    user_full_name: `${row.first_name} ${row.last_name}`.trim(),
    user_first_name: row.first_name,
    user_last_name: row.last_name,
    user_email: row.email,
    customer_uuid: hex(row.customer_id),
    customer_name: row.customer_name,
    is_restricted: row.is_restricted,
    service_provider_comment: row.service_provider_comment,
    service_provider_comment_url: row.service_provider_comment_url,
    backend_metadata: row.backend_metadata,
    has_consent: has,
    requires_reconsent: reconsent,
    created: formatDateTime(row.created),
    modified: formatDateTime(row.modified),
  };
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function createBareServer(pool: pg.Pool): http.Server {
  return http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
      if (url.pathname !== "/api/marketplace-offering-users/") return send(res, 404, { detail: "Not found." });
      const key = /^Token\s+([0-9a-f]{40})$/i.exec(req.headers.authorization ?? "")?.[1];
      const viewer = key ? (await pool.query(AUTH_SQL, [tokenDigest(key)])).rows[0] : undefined;
      if (!viewer?.is_active) return send(res, 401, { detail: "Invalid token." });
      const pageSize = Math.min(Number(url.searchParams.get("page_size")) || 10, 300);
      const [count, page] = await Promise.all([pool.query(COUNT_SQL), pool.query(PAGE_SQL, [pageSize, 0])]);
      const total: number = count.rows[0].total;
      send(res, 200, page.rows.map((row) => serialise(row, url.origin)), { "x-result-count": String(total) });
    } catch (error) {
      console.error(error);
      send(res, 500, { detail: "Internal server error." });
    }
  });
}
