import http from "node:http";
import type pg from "pg";
import { tokenDigest } from "../src/auth/secrets.ts";
import { transition, transitionIn, type Viewer } from "./bare-transition.ts";
import { OFFERING_USERS_PATH, offeringUserJson, type OfferingUserRow, offeringUserUuidIn } from "./offering-user-json.ts";
import { named } from "./named-statement.ts";

/**
 * The floor: the gateway's offering-user list and retrieve, read with `pg` and serialised by hand, with the database
 * round trips the gateway cannot avoid (token lookup, then count and page in parallel) and no framework at all; and
 * its offering-user transitions (bench/bare-transition.ts).
 */
const AUTH_SQL = `SELECT u.id, u.username, u.is_active, u.is_staff FROM auth_tokens t JOIN users u ON u.id = t.user_id WHERE t.key_digest = $1`;
const COUNT_SQL = `SELECT count(*)::int AS total FROM offering_users`;
const SELECT_FROM = `
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
    LEFT JOIN user_offering_consents uc ON uc.user_id = ou.user_id AND uc.offering_id = ou.offering_id`;
const PAGE_SQL = `${SELECT_FROM} ORDER BY ou.username ASC NULLS FIRST, ou.created ASC, ou.id ASC LIMIT $1 OFFSET $2`;
const ONE_SQL = `${SELECT_FROM} WHERE ou.id = $1`;

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? "" : JSON.stringify(body);
  const type = body === undefined ? {} : { "content-type": "application/json" };
  res.writeHead(status, { ...type, "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function createBareServer(pool: pg.Pool): http.Server {
  return http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
      const move = req.method === "POST" ? transitionIn(url.pathname) : undefined;
      const uuid = req.method === "GET" ? offeringUserUuidIn(url.pathname) : undefined;
      const list = req.method === "GET" && url.pathname === OFFERING_USERS_PATH;
      if (!move && !uuid && !list) return send(res, 404, { detail: "Not found." });
      const key = /^Token\s+([0-9a-f]{40})$/i.exec(req.headers.authorization ?? "")?.[1];
      const viewer = key ? (await pool.query<Viewer & { is_active: boolean }>(named(AUTH_SQL, [tokenDigest(key)]))).rows[0] : undefined;
      if (!viewer?.is_active) return send(res, 401, { detail: "Invalid token." });
      if (move) {
        req.resume();
        const answer = await transition(pool, viewer, move.uuid, move.operation, req.socket.remoteAddress);
        return send(res, answer.status, answer.body);
      }
      if (uuid) {
        const row = (await pool.query<OfferingUserRow>(named(ONE_SQL, [uuid]))).rows[0];
        return row ? send(res, 200, offeringUserJson(row, url.origin)) : send(res, 404, { detail: "Not found." });
      }
      const pageSize = Math.min(Number(url.searchParams.get("page_size")) || 10, 300);
      const [count, page] = await Promise.all([pool.query<{ total: number }>(named(COUNT_SQL, [])), pool.query<OfferingUserRow>(named(PAGE_SQL, [pageSize, 0]))]);
      const total = count.rows[0].total;
      send(res, 200, page.rows.map((row) => offeringUserJson(row, url.origin)), { "x-result-count": String(total) });
    } catch (error) {
      console.error(error);
      send(res, 500, { detail: "Internal server error." });
    }
  });
}
