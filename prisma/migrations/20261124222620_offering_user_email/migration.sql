-- AlterTable
ALTER TABLE "offering_users" ADD COLUMN     "user_email" VARCHAR(320) NOT NULL DEFAULT '';

-- The user's email joins the copies of the user an offering user carries (migration offering_user_derived_columns):
-- taken when the record is written, followed on every change.
CREATE OR REPLACE FUNCTION "offering_users_derive"() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE OR REPLACE FUNCTION "offering_users_follow_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "offering_users"
  SET "user_username" = NEW."username", "user_first_name" = NEW."first_name", "user_last_name" = NEW."last_name", "user_email" = NEW."email"
  WHERE "user_id" = NEW."id";
  RETURN NULL;
END $$;

DROP TRIGGER "offering_users_follow_user_on_rename" ON "users";

CREATE TRIGGER "offering_users_follow_user_on_rename" AFTER UPDATE OF "username", "first_name", "last_name", "email" ON "users"
  FOR EACH ROW WHEN (OLD."username" IS DISTINCT FROM NEW."username" OR OLD."first_name" IS DISTINCT FROM NEW."first_name"
    OR OLD."last_name" IS DISTINCT FROM NEW."last_name" OR OLD."email" IS DISTINCT FROM NEW."email")
  EXECUTE FUNCTION "offering_users_follow_user"();

UPDATE "offering_users" AS ou SET "user_email" = u."email" FROM "users" AS u WHERE u."id" = ou."user_id";
