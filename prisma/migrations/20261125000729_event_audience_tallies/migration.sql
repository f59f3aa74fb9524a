-- CreateTable
CREATE TABLE "event_audience_tallies" (
    "id" BIGSERIAL NOT NULL,
    "scopes" TEXT[],
    "event_type" VARCHAR(100) NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "event_audience_tallies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_user_tallies" (
    "id" BIGSERIAL NOT NULL,
    "user_id" UUID NOT NULL,
    "scopes" TEXT[],
    "event_type" VARCHAR(100) NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "event_user_tallies_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "event_audience_tallies_scopes_event_type_delta_idx" ON "event_audience_tallies"("scopes", "event_type", "delta");

-- CreateIndex
CREATE INDEX "event_audience_tallies_scopes_gin_idx" ON "event_audience_tallies" USING GIN ("scopes");

-- CreateIndex
CREATE INDEX "event_user_tallies_user_id_event_type_scopes_delta_idx" ON "event_user_tallies"("user_id", "event_type", "scopes", "delta");

-- Adds (p_sign 1) or takes away (-1) events, given by their scope rows (parallel arrays, with each row's event type),
-- from the tallies of their audiences and users. An event's audience is the customers, projects and offerings among its
-- scopes, as sorted `TYPE:uuid` (the role holders of any of them see it, src/events/visibility.ts); its users are its
-- USER scopes (each sees it as themselves). PL/pgSQL, so that its plan is kept from call to call.
CREATE FUNCTION "event_audience_tally"(p_event INT[], p_type TEXT[], p_scope_type TEXT[], p_scope UUID[], p_sign INT)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH a AS (
    SELECT min(r.event_type) AS event_type,
      coalesce(array_agg(r.scope_type || ':' || r.scope ORDER BY (r.scope_type || ':' || r.scope) COLLATE "C")
        FILTER (WHERE r.scope_type IN ('CUSTOMER', 'PROJECT', 'OFFERING')), '{}') AS scopes,
      coalesce(array_agg(r.scope) FILTER (WHERE r.scope_type = 'USER'), '{}') AS users
    FROM unnest(p_event, p_type, p_scope_type, p_scope) AS r(event_id, event_type, scope_type, scope)
    GROUP BY r.event_id
  ), audiences AS (
    INSERT INTO "event_audience_tallies" ("scopes", "event_type", "delta")
    SELECT a.scopes, a.event_type, p_sign * count(*) FROM a WHERE cardinality(a.scopes) > 0 GROUP BY 1, 2
  )
  INSERT INTO "event_user_tallies" ("user_id", "scopes", "event_type", "delta")
  SELECT u, a.scopes, a.event_type, p_sign * count(*) FROM a, unnest(a.users) AS u GROUP BY 1, 2, 3;
END $$;

-- The scope rows of some events as they are now, with the events' types (events deleted meanwhile have none).
CREATE FUNCTION "event_scope_rows"(p_events INT[])
RETURNS TABLE ("event_id" INT, "event_type" TEXT, "scope_type" TEXT, "scope_id" UUID) LANGUAGE sql STABLE AS $$
  SELECT s."event_id", e."event_type", s."scope_type"::text, s."scope_id"
  FROM "event_scopes" s JOIN "events" e ON e."id" = s."event_id" WHERE s."event_id" = ANY (p_events)
$$;

-- The tallies follow the scope rows: each event whose rows change leaves its audience as it was (if it had rows) and
-- joins the one it has now. A query of a transition table is planned anew on every call, so each is read once.
CREATE FUNCTION "event_audience_follow_scopes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed INT[];
  e INT[]; t TEXT[]; st TEXT[]; s UUID[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(a."event_id"), array_agg(ev."event_type"::text), array_agg(a."scope_type"::text), array_agg(a."scope_id") INTO e, t, st, s
      FROM added a JOIN "events" ev ON ev."id" = a."event_id";
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
            UNION ALL SELECT d."event_id", ev."event_type", d."scope_type"::text, d."scope_id" FROM removed d JOIN "events" ev ON ev."id" = d."event_id") r;
  ELSE
    SELECT array_agg(DISTINCT x) INTO changed FROM (SELECT "event_id" FROM added UNION SELECT "event_id" FROM removed) AS ids(x);
    SELECT array_agg(r."event_id"), array_agg(r."event_type"), array_agg(r."scope_type"), array_agg(r."scope_id") INTO e, t, st, s
      FROM (SELECT * FROM "event_scope_rows"(changed) c
              WHERE NOT EXISTS (SELECT 1 FROM added a WHERE (a."event_id", a."scope_type"::text, a."scope_id") = (c."event_id", c."scope_type", c."scope_id"))
            UNION ALL SELECT d."event_id", ev."event_type", d."scope_type"::text, d."scope_id" FROM removed d JOIN "events" ev ON ev."id" = d."event_id") r;
  END IF;
  IF e IS NOT NULL THEN PERFORM "event_audience_tally"(e, t, st, s, -1); END IF;
  SELECT array_agg(r."event_id"), array_agg(r."event_type"), array_agg(r."scope_type"), array_agg(r."scope_id") INTO e, t, st, s
    FROM "event_scope_rows"(changed) r;
  IF e IS NOT NULL THEN PERFORM "event_audience_tally"(e, t, st, s, 1); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "event_audience_on_scopes_insert" AFTER INSERT ON "event_scopes"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "event_audience_follow_scopes"();
CREATE TRIGGER "event_audience_on_scopes_delete" AFTER DELETE ON "event_scopes"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "event_audience_follow_scopes"();
CREATE TRIGGER "event_audience_on_scopes_update" AFTER UPDATE ON "event_scopes"
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "event_audience_follow_scopes"();

-- An event deleted leaves its audience before its scope rows go (by cascade, when its type is no longer readable);
-- one whose type changes moves to the other type's tallies.
CREATE FUNCTION "event_audience_follow_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  st TEXT[]; s UUID[];
BEGIN
  SELECT array_agg("scope_type"::text), array_agg("scope_id") INTO st, s FROM "event_scopes" WHERE "event_id" = OLD."id";
  IF st IS NOT NULL THEN
    PERFORM "event_audience_tally"(array_fill(OLD."id", ARRAY[cardinality(st)]), array_fill(OLD."event_type"::text, ARRAY[cardinality(st)]), st, s, -1);
    IF TG_OP = 'UPDATE' THEN
      PERFORM "event_audience_tally"(array_fill(NEW."id", ARRAY[cardinality(st)]), array_fill(NEW."event_type"::text, ARRAY[cardinality(st)]), st, s, 1);
    END IF;
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "event_audience_on_delete" BEFORE DELETE ON "events"
  FOR EACH ROW EXECUTE FUNCTION "event_audience_follow_event"();
CREATE TRIGGER "event_audience_on_retype" AFTER UPDATE OF "event_type" ON "events"
  FOR EACH ROW WHEN (OLD."event_type" IS DISTINCT FROM NEW."event_type") EXECUTE FUNCTION "event_audience_follow_event"();

CREATE FUNCTION "event_audience_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "event_audience_tallies", "event_user_tallies";
  RETURN NULL;
END $$;

CREATE TRIGGER "event_audience_on_truncate" AFTER TRUNCATE ON "event_scopes"
  FOR EACH STATEMENT EXECUTE FUNCTION "event_audience_clear"();

-- Tallies the events after `p_after` (by id) as they are, a hundred thousand at a time: for the events already here,
-- and for rows written with triggers off (a bulk load in replica mode).
CREATE FUNCTION "event_audience_tally_after"(p_after INT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  lo INT := p_after;
  top INT;
  e INT[]; t TEXT[]; st TEXT[]; s UUID[];
BEGIN
  SELECT max("id") INTO top FROM "events";
  WHILE lo < coalesce(top, 0) LOOP
    SELECT array_agg(sc."event_id"), array_agg(ev."event_type"::text), array_agg(sc."scope_type"::text), array_agg(sc."scope_id") INTO e, t, st, s
      FROM "event_scopes" sc JOIN "events" ev ON ev."id" = sc."event_id" WHERE sc."event_id" > lo AND sc."event_id" <= lo + 100000;
    IF e IS NOT NULL THEN PERFORM "event_audience_tally"(e, t, st, s, 1); END IF;
    lo := lo + 100000;
  END LOOP;
END $$;

SELECT "event_audience_tally_after"(0);

-- Vacuumed after a fixed number of changes, as the other tallies (migration tally_autovacuum).
ALTER TABLE "event_audience_tallies" SET (
  autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000,
  autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000,
  autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 1000
);
ALTER TABLE "event_user_tallies" SET (
  autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000,
  autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000,
  autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 1000
);
