import type pg from "pg";
import { newTokenKey, tokenDigest } from "../../src/auth/secrets.ts";
import { toHex } from "../../src/platform/ids.ts";

/**
 * A provider at scale, written with INSERT … SELECT over generate_series (PostgreSQL only; the schema must be
 * migrated). Row ids are md5 digests of a kind and an index (`md5('scale-user:42')::uuid`), so every statement derives
 * the rows it refers to without reading them back, and a second call with a larger size adds only what is missing:
 * seed small, measure, grow, measure again. Timestamps are spread evenly over the last 1,000 days whatever the size,
 * so a date filter matches the same share of rows at every size.
 */
export interface ScaleSize {
  offeringUsers: number;
  offerings: number;
  events: number;
}

export interface ScaleData {
  /** Fresh tokens of this call (each call adds one per viewer). */
  staffToken: string;
  /** A CUSTOMER.MANAGER of the provider's customer. */
  providerToken: string;
  /** Hex uuids, as Waldur writes them. */
  providerUuid: string;
  offeringUuids: string[];
  offeringSlug: string;
  /** An offering user with a username, from the middle of the range. */
  sample: { userUuid: string; username: string; userUsername: string; lastName: string };
  /** The most common event type seeded (three in ten events). */
  eventType: string;
  counts: { offeringUsers: number; events: number; eventScopes: number };
}

const PROJECTS = 100;
const DAY_SECONDS = 86_400;
const SPREAD_SECONDS = 1_000 * DAY_SECONDS;
/** The state of offering user i is STATES[hash(i) % 20]: mostly OK, every other state one in twenty. */
const STATES = [
  ...Array<string>(11).fill("OK"),
  "CREATION_REQUESTED", "CREATING", "PENDING_ACCOUNT_LINKING", "PENDING_ADDITIONAL_VALIDATION", "DELETION_REQUESTED",
  "DELETING", "DELETED", "ERROR_CREATING", "ERROR_DELETING",
];
const FIRST_NAMES = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Ken", "Margaret"];
/** Event kinds by `i % 20`: offering-user changes half of all, then logins, grants, offering edits, orders, consents, tokens. */
const EVENT_TYPE_SQL = `CASE
  WHEN c < 6 THEN 'marketplace_offering_user_updated' WHEN c < 8 THEN 'marketplace_offering_user_created'
  WHEN c = 8 THEN 'marketplace_offering_user_deleted' WHEN c = 9 THEN 'marketplace_offering_user_restriction_updated'
  WHEN c < 12 THEN 'marketplace_offering_updated' WHEN c < 15 THEN 'auth_logged_in_with_username'
  WHEN c < 17 THEN 'role_granted' WHEN c = 17 THEN 'marketplace_order_created'
  WHEN c = 18 THEN 'terms_of_service_consent_granted' ELSE 'token_created' END`;

const uuidOf = (kind: string, index: string) => `md5('scale-${kind}:' || ${index})::uuid`;
/** A well-mixed 32-bit hash of an integer column, salted so that different attributes do not move together. */
const hash = (column: string, salt: number) => `((${column}::bigint * 2654435761 + ${salt}) % 4294967296)`;
const spreadTime = (column: string, salt: number) => `now() - (${hash(column, salt)} % ${SPREAD_SECONDS}) * interval '1 second'`;

export async function seedScaleData(client: pg.Client, size: ScaleSize): Promise<ScaleData> {
  await client.query("SET synchronous_commit = off");
  const ids = await baseRows(client);
  const existing = await countsOf(client, ids.provider);
  await growOfferings(client, ids.provider, existing.offerings, size.offerings);
  const offerings = Math.max(existing.offerings, size.offerings);
  await growOfferingUsers(client, existing.offeringUsers, size.offeringUsers, offerings);
  await withoutSecondaryIndexes(client, ["events", "event_scopes"], size.events - existing.events > existing.events, () =>
    growEvents(client, ids, existing.events, size.events),
  );
  await client.query("VACUUM (ANALYZE) users, role_grants, offerings, offering_users, user_offering_consents, events, event_scopes");
  await client.query("RESET synchronous_commit");
  return describe(client, ids.provider);
}

/**
 * Runs `work` with the tables' indexes other than their primary keys dropped (when `worth` it: more rows to add than
 * there are), then builds them again from their own definitions: a bulk load with a dozen random-order index
 * insertions per row is several times slower than sorting each index once afterwards.
 */
async function withoutSecondaryIndexes(client: pg.Client, tables: string[], worth: boolean, work: () => Promise<void>) {
  if (!worth) return work();
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
     WHERE schemaname = current_schema() AND tablename = ANY($1) AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype = 'p')`,
    [tables],
  );
  for (const index of rows) await client.query(`DROP INDEX "${index.name}"`);
  try {
    await work();
  } finally {
    await client.query("SET maintenance_work_mem = '256MB'");
    for (const index of rows) await client.query(index.definition);
    await client.query("RESET maintenance_work_mem");
  }
}

interface BaseIds {
  provider: string;
  consumer: string;
  manager: string;
}

async function baseRows(client: pg.Client): Promise<BaseIds> {
  const provider = (await client.query<{ id: string }>("SELECT id FROM customers WHERE name = 'Scale Provider'")).rows[0]?.id;
  const consumer = "md5('scale-customer:consumer')::uuid";
  if (!provider) {
    await client.query(`INSERT INTO customers (id, name, abbreviation, modified) VALUES
      (md5('scale-customer:provider')::uuid, 'Scale Provider', 'SP', now()), (${consumer}, 'Scale Consumer', 'SC', now())`);
    await client.query("INSERT INTO service_providers (id, customer_id, modified) VALUES (md5('scale-sp')::uuid, md5('scale-customer:provider')::uuid, now())");
    await client.query(`INSERT INTO projects (id, name, customer_id, modified)
      SELECT ${uuidOf("project", "p")}, 'Scale Project ' || p, ${consumer}, now() FROM generate_series(1, ${PROJECTS}) p`);
    await client.query(`INSERT INTO users (id, username, first_name, last_name, is_staff, modified) VALUES
      (md5('scale-staff')::uuid, 'scale-staff', 'Scale', 'Staff', true, now()),
      (md5('scale-manager')::uuid, 'scale-provider-manager', 'Scale', 'Manager', false, now())`);
    await client.query(`INSERT INTO role_grants (id, user_id, role, scope_type, scope_id)
      VALUES (md5('scale-grant:manager')::uuid, md5('scale-manager')::uuid, 'CUSTOMER.MANAGER', 'CUSTOMER', md5('scale-customer:provider')::uuid)`);
  }
  const row = (await client.query<BaseIds>(`SELECT md5('scale-customer:provider')::uuid::text AS provider,
    ${consumer}::text AS consumer, md5('scale-manager')::uuid::text AS manager`)).rows[0];
  return row;
}

async function countsOf(client: pg.Client, provider: string) {
  const { rows } = await client.query<{ offerings: number; offering_users: number; events: number }>(
    `SELECT (SELECT count(*)::int FROM offerings WHERE customer_id = $1) AS offerings,
       (SELECT count(*)::int FROM offering_users ou JOIN offerings o ON o.id = ou.offering_id WHERE o.customer_id = $1) AS offering_users,
       (SELECT count(*)::int FROM events) AS events`,
    [provider],
  );
  return { offerings: rows[0].offerings, offeringUsers: rows[0].offering_users, events: rows[0].events };
}

/** Offerings 1…n; every fifth has active terms of service (so `has_consent` and `offering_has_active_tos` have work). */
async function growOfferings(client: pg.Client, provider: string, from: number, to: number) {
  if (to <= from) return;
  await client.query(
    `INSERT INTO offerings (id, name, type, state, customer_id, plugin_options, backend_id, modified)
     SELECT ${uuidOf("offering", "k")}, 'Scale Offering ' || lpad(k::text, 3, '0'), 'Marketplace.Slurm', 'ACTIVE'::"OfferingState", $1,
       '{"service_provider_can_create_offering_user": true}'::jsonb, 'cluster-' || k, now()
     FROM generate_series($2::int + 1, $3::int) k`,
    [provider, from, to],
  );
  await client.query(
    `INSERT INTO offering_terms_of_service (id, offering_id, terms_of_service, version, is_active, activated_at, modified)
     SELECT ${uuidOf("tos", "k")}, ${uuidOf("offering", "k")}, 'Use the cluster fairly.', '1.0', true, now(), now()
     FROM generate_series($1::int + 1, $2::int) k WHERE k % 5 = 0`,
    [from, to],
  );
}

/**
 * Users from+1…to, each a member of one of the consumer's projects with one offering user on offering
 * 1 + (i-1) % offerings; half of those on offerings with terms have consented.
 */
async function growOfferingUsers(client: pg.Client, from: number, to: number, offerings: number) {
  if (to <= from) return;
  const series = `generate_series(${from + 1}, ${to}) i`;
  const offering = `(1 + (i - 1) % ${offerings})`;
  const states = `ARRAY[${STATES.map((s) => `'${s}'`).join(",")}]::"OfferingUserState"[]`;
  await client.query(`INSERT INTO users (id, username, email, first_name, last_name, created, modified)
    SELECT ${uuidOf("user", "i")}, 'scale-user-' || lpad(i::text, 7, '0'), 'scale-user-' || i || '@example.org',
      (ARRAY[${FIRST_NAMES.map((n) => `'${n}'`).join(",")}])[1 + i % ${FIRST_NAMES.length}], 'Lastname' || (${hash("i", 7)} % 9973), now(), now()
    FROM ${series}`);
  await client.query(`INSERT INTO role_grants (id, user_id, role, scope_type, scope_id)
    SELECT ${uuidOf("member", "i")}, ${uuidOf("user", "i")}, 'PROJECT.MEMBER', 'PROJECT', ${uuidOf("project", `(1 + i % ${PROJECTS})`)} FROM ${series}`);
  await client.query(`INSERT INTO offering_users (id, offering_id, user_id, username, state, is_restricted, service_provider_comment,
      backend_metadata, created, modified)
    SELECT ${uuidOf("ou", "i")}, ${uuidOf("offering", offering)}, ${uuidOf("user", "i")},
      CASE WHEN s.state = 'CREATION_REQUESTED' THEN NULL ELSE 'u' || lpad(i::text, 7, '0') END, s.state, i % 50 = 0,
      CASE WHEN i % 7 = 0 THEN 'Waiting for the site administrator.' ELSE '' END,
      jsonb_build_object('home', '/home/u' || lpad(i::text, 7, '0'), 'shell', '/bin/bash'),
      t.created, least(now(), t.created + (${hash("i", 11)} % ${30 * DAY_SECONDS}) * interval '1 second')
    FROM ${series}
    CROSS JOIN LATERAL (SELECT (${states})[1 + ${hash("i", 3)} % ${STATES.length}] AS state) s
    CROSS JOIN LATERAL (SELECT ${spreadTime("i", 5)} AS created) t`);
  await client.query(`INSERT INTO user_offering_consents (id, user_id, offering_id, version, modified)
    SELECT ${uuidOf("consent", "i")}, ${uuidOf("user", "i")}, ${uuidOf("offering", offering)}, '1.0', now()
    FROM ${series} WHERE ${offering} % 5 = 0 AND i % 2 = 0`);
}

/**
 * Events from+1…to (ids continue the sequence) about offering user 1 + hash(i) % n, with the scopes the gateway's
 * writers give each type (src/offering-users/changes.ts, src/directory/service-offerings.ts, src/terms-of-service/service-consents.ts,
 * …): about 3.2 per event. One statement writes both, as recordEvent does.
 */
async function growEvents(client: pg.Client, ids: BaseIds, from: number, to: number) {
  if (to <= from) return;
  await client.query(`CREATE TEMP TABLE scale_subjects AS
    SELECT substr(u.username, 12)::int AS n, ou.id AS ou_id, ou.offering_id, o.name AS offering_name, u.id AS user_id, u.username,
      ${uuidOf("project", `(1 + substr(u.username, 12)::int % ${PROJECTS})`)} AS project_id
    FROM offering_users ou JOIN users u ON u.id = ou.user_id JOIN offerings o ON o.id = ou.offering_id
    WHERE o.customer_id = '${ids.provider}' AND u.username LIKE 'scale-user-%'`);
  const subjects = Number((await client.query<{ n: number }>("SELECT count(*)::int AS n FROM scale_subjects")).rows[0].n);
  await client.query("CREATE UNIQUE INDEX ON scale_subjects (n); ANALYZE scale_subjects");
  const base = Number((await client.query<{ max: number }>("SELECT coalesce(max(id), 0)::int AS max FROM events")).rows[0].max);
  const hex = (column: string) => `replace(${column}::text, '-', '')`;
  const [provider, consumer, manager] = [ids.provider, ids.consumer, ids.manager].map((id) => `'${id}'::uuid`);
  // The rows are consistent by construction: without the foreign-key triggers (one locking lookup per scope row) the
  // statement takes a quarter of the time. Needs a superuser; anyone else waits for the checks.
  const replica = await client.query("SET session_replication_role = replica").then(() => true, () => false);
  await client.query(`WITH src AS MATERIALIZED (
      SELECT ${base} - ${from} + i AS id, i % 20 AS c, '192.0.2.' || (i % 250) AS ip, s.*, ${spreadTime("i", 17)} AS created
      FROM generate_series(${from + 1}, ${to}) i JOIN scale_subjects s ON s.n = 1 + ${hash("i", 13)} % ${subjects}
    ), typed AS (SELECT src.*, ${EVENT_TYPE_SQL} AS event_type FROM src
    ), written AS (
      INSERT INTO events (id, uuid, created, event_type, message, context)
      SELECT id, gen_random_uuid(), created, event_type,
        CASE WHEN c < 10 THEN 'Offering user ' || username || ' in offering ' || offering_name || ' has been ' ||
            CASE WHEN c < 6 THEN 'updated' WHEN c < 8 THEN 'created' WHEN c = 8 THEN 'deleted' ELSE 'restricted' END || '.'
          WHEN c < 12 THEN 'Offering ' || offering_name || ' has been updated.'
          WHEN c < 15 THEN 'User ' || username || ' authenticated successfully with username and password.'
          WHEN c < 17 THEN 'User ' || username || ' has gained role of member in project.'
          WHEN c = 17 THEN 'Order for offering ' || offering_name || ' has been created.'
          WHEN c = 18 THEN 'User ' || username || ' has accepted the terms of service (version 1.0) of offering ' || offering_name || '.'
          ELSE 'Token of ' || username || ' has been created.' END,
        CASE WHEN c < 10 THEN jsonb_build_object('offering_user_uuid', ${hex("ou_id")}, 'offering_uuid', ${hex("offering_id")},
            'offering_name', offering_name, 'customer_uuid', ${hex(provider)}, 'affected_user_uuid', ${hex("user_id")},
            'affected_user_username', username, 'state', 'OK', 'ip_address', ip)
          ELSE jsonb_build_object('user_uuid', ${hex("user_id")}, 'user_username', username, 'ip_address', ip) END
      FROM typed
    )
    INSERT INTO event_scopes (event_id, scope_type, scope_id)
    SELECT src.id, v.t::"EventScopeType", v.scope FROM src CROSS JOIN LATERAL (VALUES
      ('OFFERING_USER', CASE WHEN c < 10 THEN ou_id END),
      ('OFFERING', CASE WHEN c < 12 OR c IN (17, 18) THEN offering_id END),
      ('CUSTOMER', CASE WHEN c < 12 OR c IN (17, 18) THEN ${provider} END),
      ('CUSTOMER', CASE WHEN c IN (15, 16, 17) THEN ${consumer} END),
      ('PROJECT', CASE WHEN c IN (15, 16, 17) THEN project_id END),
      ('USER', CASE WHEN c IN (10, 11) THEN ${manager} WHEN c = 17 THEN NULL ELSE user_id END)
    ) AS v(t, scope) WHERE v.scope IS NOT NULL`);
  if (replica) {
    await client.query("SET session_replication_role = DEFAULT");
    // Replica mode skipped the tally triggers too: write the tallies they would have.
    await client.query(`INSERT INTO event_tallies (event_type, delta) SELECT event_type, count(*) FROM events WHERE id > ${base} GROUP BY event_type`);
    await client.query(`SELECT event_audience_tally_after(${base})`);
  }
  await client.query("SELECT setval(pg_get_serial_sequence('events', 'id'), (SELECT max(id) FROM events))");
  await client.query("DROP TABLE scale_subjects");
}

async function describe(client: pg.Client, provider: string): Promise<ScaleData> {
  const tokens = { staff: newTokenKey(), provider: newTokenKey() };
  await client.query(
    "INSERT INTO auth_tokens (key_digest, user_id) VALUES ($1, md5('scale-staff')::uuid), ($2, md5('scale-manager')::uuid)",
    [tokenDigest(tokens.staff), tokenDigest(tokens.provider)],
  );
  const offerings = await client.query<{ id: string; slug: string }>("SELECT id, slug FROM offerings WHERE customer_id = $1 ORDER BY name", [provider]);
  const counts = await client.query<{ offering_users: number; events: number; scopes: number }>(
    `SELECT (SELECT count(*)::int FROM offering_users) AS offering_users, (SELECT count(*)::int FROM events) AS events,
       (SELECT count(*)::int FROM event_scopes) AS scopes`,
  );
  const middle = Math.ceil(counts.rows[0].offering_users / 2);
  const sample = await client.query<{ user_id: string; username: string; user_username: string; last_name: string }>(
    `SELECT u.id AS user_id, ou.username, u.username AS user_username, u.last_name FROM offering_users ou JOIN users u ON u.id = ou.user_id
     WHERE ou.username IS NOT NULL AND u.username >= $1 ORDER BY u.username LIMIT 1`,
    [`scale-user-${String(middle).padStart(7, "0")}`],
  );
  const s = sample.rows[0];
  return {
    staffToken: tokens.staff,
    providerToken: tokens.provider,
    providerUuid: toHex(provider),
    offeringUuids: offerings.rows.map((o) => toHex(o.id)),
    offeringSlug: offerings.rows[0].slug,
    sample: { userUuid: toHex(s.user_id), username: s.username, userUsername: s.user_username, lastName: s.last_name },
    eventType: "marketplace_offering_user_updated",
    counts: { offeringUsers: counts.rows[0].offering_users, events: counts.rows[0].events, eventScopes: counts.rows[0].scopes },
  };
}
