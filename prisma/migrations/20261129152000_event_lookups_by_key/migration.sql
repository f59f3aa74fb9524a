-- The audience tallies' triggers look each scope row's event up by its key, whatever the planner knows of "events".
-- A trigger's plan is kept for the connection's life: planned while "events" was small and never analyzed (autovacuum
-- off), a join read every event once per statement, and ever more of them. A lateral subquery kept apart (OFFSET 0)
-- can only be read once per row, by "events_pkey".

CREATE OR REPLACE FUNCTION "event_scope_rows"(p_events INT[])
RETURNS TABLE ("event_id" INT, "event_type" TEXT, "scope_type" TEXT, "scope_id" UUID) LANGUAGE sql STABLE AS $$
  SELECT s."event_id", e."event_type", s."scope_type"::text, s."scope_id"
  FROM "event_scopes" s, LATERAL (SELECT "event_type" FROM "events" WHERE "id" = s."event_id" OFFSET 0) e
  WHERE s."event_id" = ANY (p_events)
$$;

CREATE OR REPLACE FUNCTION "event_audience_follow_scopes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed INT[];
  e INT[]; t TEXT[]; st TEXT[]; s UUID[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(a."event_id"), array_agg(ev."event_type"::text), array_agg(a."scope_type"::text), array_agg(a."scope_id") INTO e, t, st, s
      FROM added a, LATERAL (SELECT "event_type" FROM "events" WHERE "id" = a."event_id" OFFSET 0) ev;
    IF e IS NULL THEN RETURN NULL; END IF;
    changed := ARRAY(SELECT DISTINCT unnest(e));
    -- An event's rows are usually all written in one statement: then it had none before, and the rows added are all
    -- it has.
    IF (SELECT count(*) FROM "event_scopes" WHERE "event_id" = ANY (changed)) = cardinality(e) THEN
      PERFORM "event_audience_tally"(e, t, st, s, 1);
      RETURN NULL;
    END IF;
    SELECT array_agg(r."event_id"), array_agg(r."event_type"), array_agg(r."scope_type"), array_agg(r."scope_id") INTO e, t, st, s
      FROM "event_scope_rows"(changed) r
      WHERE NOT EXISTS (SELECT 1 FROM added a WHERE (a."event_id", a."scope_type"::text, a."scope_id") = (r."event_id", r."scope_type", r."scope_id"));
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT "event_id") INTO changed FROM removed;
    SELECT array_agg(r."event_id"), array_agg(r."event_type"), array_agg(r."scope_type"), array_agg(r."scope_id") INTO e, t, st, s
      FROM (SELECT * FROM "event_scope_rows"(changed)
            UNION ALL SELECT d."event_id", ev."event_type", d."scope_type"::text, d."scope_id"
              FROM removed d, LATERAL (SELECT "event_type" FROM "events" WHERE "id" = d."event_id" OFFSET 0) ev) r;
  ELSE
    SELECT array_agg(DISTINCT x) INTO changed FROM (SELECT "event_id" FROM added UNION SELECT "event_id" FROM removed) AS ids(x);
    SELECT array_agg(r."event_id"), array_agg(r."event_type"), array_agg(r."scope_type"), array_agg(r."scope_id") INTO e, t, st, s
      FROM (SELECT * FROM "event_scope_rows"(changed) c
              WHERE NOT EXISTS (SELECT 1 FROM added a WHERE (a."event_id", a."scope_type"::text, a."scope_id") = (c."event_id", c."scope_type", c."scope_id"))
            UNION ALL SELECT d."event_id", ev."event_type", d."scope_type"::text, d."scope_id"
              FROM removed d, LATERAL (SELECT "event_type" FROM "events" WHERE "id" = d."event_id" OFFSET 0) ev) r;
  END IF;
  IF e IS NOT NULL THEN PERFORM "event_audience_tally"(e, t, st, s, -1); END IF;
  SELECT array_agg(r."event_id"), array_agg(r."event_type"), array_agg(r."scope_type"), array_agg(r."scope_id") INTO e, t, st, s
    FROM "event_scope_rows"(changed) r;
  IF e IS NOT NULL THEN PERFORM "event_audience_tally"(e, t, st, s, 1); END IF;
  RETURN NULL;
END $$;
