-- DropIndex
DROP INDEX "offering_user_tallies_offering_id_state_delta_idx";

-- DropIndex
DROP INDEX "users_first_name_idx";

-- DropIndex
DROP INDEX "users_last_name_idx";

-- AlterTable
ALTER TABLE "offering_user_tallies" ADD COLUMN     "has_consent" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "offering_users" ADD COLUMN     "has_consent" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "user_email" VARCHAR(320) NOT NULL DEFAULT '',
ADD COLUMN     "user_first_name" VARCHAR(100) NOT NULL DEFAULT '',
ADD COLUMN     "user_last_name" VARCHAR(100) NOT NULL DEFAULT '',
ADD COLUMN     "user_username" VARCHAR(150) NOT NULL DEFAULT '';

-- An offering user written with a user and an offering takes the user's username, names and email and whether the user holds
-- an unrevoked consent to the offering. The user's row is share-locked first: a rename or a consent change of that
-- user (which lock the row for update) waits for this write to commit and then updates it too, or this write waits
-- for them and reads what they committed.
CREATE FUNCTION "offering_users_derive"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT "username", "first_name", "last_name", "email"
  INTO NEW."user_username", NEW."user_first_name", NEW."user_last_name", NEW."user_email"
  FROM "users" WHERE "id" = NEW."user_id" FOR SHARE;
  NEW."has_consent" := EXISTS (
    SELECT FROM "user_offering_consents"
    WHERE "user_id" = NEW."user_id" AND "offering_id" = NEW."offering_id" AND "revocation_date" IS NULL
  );
  RETURN NEW;
END $$;

CREATE TRIGGER "offering_users_derive_on_write" BEFORE INSERT OR UPDATE OF "user_id", "offering_id" ON "offering_users"
  FOR EACH ROW EXECUTE FUNCTION "offering_users_derive"();

-- A user's offering users follow every change of the user's username, names and email...
CREATE FUNCTION "offering_users_follow_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "offering_users"
  SET "user_username" = NEW."username", "user_first_name" = NEW."first_name", "user_last_name" = NEW."last_name", "user_email" = NEW."email"
  WHERE "user_id" = NEW."id";
  RETURN NULL;
END $$;

CREATE TRIGGER "offering_users_follow_user_on_rename" AFTER UPDATE OF "username", "first_name", "last_name", "email" ON "users"
  FOR EACH ROW WHEN (OLD."username" IS DISTINCT FROM NEW."username" OR OLD."first_name" IS DISTINCT FROM NEW."first_name"
    OR OLD."last_name" IS DISTINCT FROM NEW."last_name" OR OLD."email" IS DISTINCT FROM NEW."email")
  EXECUTE FUNCTION "offering_users_follow_user"();

-- ...and every consent given, revoked or deleted (the user's row is locked first: see offering_users_derive).
CREATE FUNCTION "offering_users_follow_consent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM FROM "users" WHERE "id" = OLD."user_id" FOR NO KEY UPDATE;
    UPDATE "offering_users" SET "has_consent" = false
    WHERE "user_id" = OLD."user_id" AND "offering_id" = OLD."offering_id" AND "has_consent";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM FROM "users" WHERE "id" = NEW."user_id" FOR NO KEY UPDATE;
    UPDATE "offering_users" SET "has_consent" = (NEW."revocation_date" IS NULL)
    WHERE "user_id" = NEW."user_id" AND "offering_id" = NEW."offering_id" AND "has_consent" <> (NEW."revocation_date" IS NULL);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "offering_users_follow_consent_on_write" AFTER INSERT OR DELETE OR UPDATE OF "user_id", "offering_id", "revocation_date"
  ON "user_offering_consents" FOR EACH ROW EXECUTE FUNCTION "offering_users_follow_consent"();

CREATE FUNCTION "offering_users_forget_consents"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "offering_users" SET "has_consent" = false WHERE "has_consent";
  RETURN NULL;
END $$;

CREATE TRIGGER "offering_users_forget_consents_on_truncate" AFTER TRUNCATE ON "user_offering_consents"
  FOR EACH STATEMENT EXECUTE FUNCTION "offering_users_forget_consents"();

-- The tallies count offering users by consent too.
CREATE OR REPLACE FUNCTION "offering_user_tallies_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "offering_user_tallies" ("offering_id", "state", "has_consent", "delta") VALUES (NEW."offering_id", NEW."state", NEW."has_consent", 1);
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "offering_user_tallies" ("offering_id", "state", "has_consent", "delta") VALUES (OLD."offering_id", OLD."state", OLD."has_consent", -1);
  ELSE
    INSERT INTO "offering_user_tallies" ("offering_id", "state", "has_consent", "delta")
    VALUES (OLD."offering_id", OLD."state", OLD."has_consent", -1), (NEW."offering_id", NEW."state", NEW."has_consent", 1);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER "offering_user_tallies_on_move" ON "offering_users";

CREATE TRIGGER "offering_user_tallies_on_move" AFTER UPDATE OF "state", "offering_id", "has_consent" ON "offering_users"
  FOR EACH ROW WHEN (OLD."state" IS DISTINCT FROM NEW."state" OR OLD."offering_id" IS DISTINCT FROM NEW."offering_id"
    OR OLD."has_consent" IS DISTINCT FROM NEW."has_consent")
  EXECUTE FUNCTION "offering_user_tallies_follow"();

-- The offering users already here (before their indexes: one sort per index afterwards), and their tallies again.
ALTER TABLE "offering_users" DISABLE TRIGGER "offering_user_tallies_on_move";

UPDATE "offering_users" AS ou
SET "user_username" = u."username", "user_first_name" = u."first_name", "user_last_name" = u."last_name", "user_email" = u."email",
  "has_consent" = EXISTS (
    SELECT FROM "user_offering_consents" AS c
    WHERE c."user_id" = ou."user_id" AND c."offering_id" = ou."offering_id" AND c."revocation_date" IS NULL
  )
FROM "users" AS u WHERE u."id" = ou."user_id";

ALTER TABLE "offering_users" ENABLE TRIGGER "offering_user_tallies_on_move";

DELETE FROM "offering_user_tallies";

INSERT INTO "offering_user_tallies" ("offering_id", "state", "has_consent", "delta")
SELECT "offering_id", "state", "has_consent", count(*) FROM "offering_users" GROUP BY "offering_id", "state", "has_consent";

-- CreateIndex
CREATE INDEX "offering_user_tallies_offering_id_state_has_consent_delta_idx" ON "offering_user_tallies"("offering_id", "state", "has_consent", "delta");

-- CreateIndex
CREATE INDEX "offering_users_user_first_name_created_id_idx" ON "offering_users"("user_first_name", "created", "id");

-- CreateIndex
CREATE INDEX "offering_users_user_last_name_created_id_idx" ON "offering_users"("user_last_name", "created", "id");

-- CreateIndex
CREATE INDEX "offering_users_is_restricted_username_created_id_idx" ON "offering_users"("is_restricted", "username", "created", "id");

-- CreateIndex
CREATE INDEX "offering_users_search_trgm_idx" ON "offering_users" USING GIN ("username" gin_trgm_ops, "user_username" gin_trgm_ops, "user_first_name" gin_trgm_ops, "user_last_name" gin_trgm_ops);
