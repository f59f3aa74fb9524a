-- CreateTable
CREATE TABLE "event_tallies" (
    "id" BIGSERIAL NOT NULL,
    "event_type" VARCHAR(100) NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "event_tallies_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "event_tallies_event_type_delta_idx" ON "event_tallies"("event_type", "delta");

-- The tallies follow events: +1 for each event written, -1 for each deleted, both for one whose type changes.
CREATE FUNCTION "event_tallies_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "event_tallies" ("event_type", "delta") VALUES (NEW."event_type", 1);
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "event_tallies" ("event_type", "delta") VALUES (OLD."event_type", -1);
  ELSE
    INSERT INTO "event_tallies" ("event_type", "delta") VALUES (OLD."event_type", -1), (NEW."event_type", 1);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "event_tallies_on_insert_or_delete" AFTER INSERT OR DELETE ON "events"
  FOR EACH ROW EXECUTE FUNCTION "event_tallies_follow"();

CREATE TRIGGER "event_tallies_on_retype" AFTER UPDATE OF "event_type" ON "events"
  FOR EACH ROW WHEN (OLD."event_type" IS DISTINCT FROM NEW."event_type") EXECUTE FUNCTION "event_tallies_follow"();

CREATE FUNCTION "event_tallies_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "event_tallies";
  RETURN NULL;
END $$;

CREATE TRIGGER "event_tallies_on_truncate" AFTER TRUNCATE ON "events"
  FOR EACH STATEMENT EXECUTE FUNCTION "event_tallies_clear"();

-- The events already here.
INSERT INTO "event_tallies" ("event_type", "delta") SELECT "event_type", count(*) FROM "events" GROUP BY "event_type";
