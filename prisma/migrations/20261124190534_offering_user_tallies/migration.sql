-- DropIndex
DROP INDEX "offering_users_state_idx";

-- CreateTable
CREATE TABLE "offering_user_tallies" (
    "id" BIGSERIAL NOT NULL,
    "offering_id" UUID NOT NULL,
    "state" "OfferingUserState" NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "offering_user_tallies_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "offering_user_tallies_offering_id_state_delta_idx" ON "offering_user_tallies"("offering_id", "state", "delta");

-- CreateIndex
CREATE INDEX "offering_users_state_username_created_id_idx" ON "offering_users"("state", "username", "created", "id");

-- The tallies follow offering_users: +1 for a row that arrives in an (offering, state), -1 for one that leaves it.
CREATE FUNCTION "offering_user_tallies_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "offering_user_tallies" ("offering_id", "state", "delta") VALUES (NEW."offering_id", NEW."state", 1);
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "offering_user_tallies" ("offering_id", "state", "delta") VALUES (OLD."offering_id", OLD."state", -1);
  ELSE
    INSERT INTO "offering_user_tallies" ("offering_id", "state", "delta")
    VALUES (OLD."offering_id", OLD."state", -1), (NEW."offering_id", NEW."state", 1);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "offering_user_tallies_on_insert_or_delete" AFTER INSERT OR DELETE ON "offering_users"
  FOR EACH ROW EXECUTE FUNCTION "offering_user_tallies_follow"();

CREATE TRIGGER "offering_user_tallies_on_move" AFTER UPDATE OF "state", "offering_id" ON "offering_users"
  FOR EACH ROW WHEN (OLD."state" IS DISTINCT FROM NEW."state" OR OLD."offering_id" IS DISTINCT FROM NEW."offering_id")
  EXECUTE FUNCTION "offering_user_tallies_follow"();

CREATE FUNCTION "offering_user_tallies_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "offering_user_tallies";
  RETURN NULL;
END $$;

CREATE TRIGGER "offering_user_tallies_on_truncate" AFTER TRUNCATE ON "offering_users"
  FOR EACH STATEMENT EXECUTE FUNCTION "offering_user_tallies_clear"();

-- The offering users already here.
INSERT INTO "offering_user_tallies" ("offering_id", "state", "delta")
SELECT "offering_id", "state", count(*) FROM "offering_users" GROUP BY "offering_id", "state";
