-- An offering user carries copies of its offering's name, its offering's customer (id and name) and whether the
-- offering has active terms of service, as it carries its user's names: the list shows them from its own rows, and a
-- record's fields read plain columns instead of joining every row to its offering, customer and terms.
ALTER TABLE "offering_users" ADD COLUMN "customer_id" UUID,
ADD COLUMN "customer_name" VARCHAR(150) NOT NULL DEFAULT '',
ADD COLUMN "offering_has_active_terms" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "offering_name" VARCHAR(150) NOT NULL DEFAULT '';

-- A record written with an offering takes the offering's copies. The offering's row is share-locked first, as
-- offering_users_derive locks the user's: a rename or move of the offering, a rename of its customer or a change of
-- its terms (each locks the offering's row for update) waits for this write to commit and then updates it too, or
-- this write waits for them and reads what they committed.
CREATE FUNCTION "offering_users_derive_offering"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT o."name", o."customer_id", c."name"
  INTO NEW."offering_name", NEW."customer_id", NEW."customer_name"
  FROM "offerings" AS o JOIN "customers" AS c ON c."id" = o."customer_id"
  WHERE o."id" = NEW."offering_id" FOR SHARE OF o;
  NEW."offering_has_active_terms" := EXISTS (
    SELECT FROM "offering_terms_of_service" WHERE "offering_id" = NEW."offering_id" AND "is_active"
  );
  RETURN NEW;
END $$;

CREATE TRIGGER "offering_users_derive_offering_on_write" BEFORE INSERT OR UPDATE OF "offering_id" ON "offering_users"
  FOR EACH ROW EXECUTE FUNCTION "offering_users_derive_offering"();

-- An offering's records follow its rename and its move to another customer...
CREATE FUNCTION "offering_users_follow_offering"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "offering_users" AS ou
  SET "offering_name" = NEW."name", "customer_id" = NEW."customer_id", "customer_name" = c."name"
  FROM "customers" AS c WHERE c."id" = NEW."customer_id" AND ou."offering_id" = NEW."id";
  RETURN NULL;
END $$;

CREATE TRIGGER "offering_users_follow_offering_on_change" AFTER UPDATE OF "name", "customer_id" ON "offerings"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."customer_id" IS DISTINCT FROM NEW."customer_id")
  EXECUTE FUNCTION "offering_users_follow_offering"();

-- ...the rename of its customer (each of the customer's offerings is locked first: see offering_users_derive_offering)...
CREATE FUNCTION "offering_users_follow_customer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM FROM "offerings" WHERE "customer_id" = NEW."id" FOR NO KEY UPDATE;
  UPDATE "offering_users" SET "customer_name" = NEW."name"
  WHERE "offering_id" IN (SELECT "id" FROM "offerings" WHERE "customer_id" = NEW."id");
  RETURN NULL;
END $$;

CREATE TRIGGER "offering_users_follow_customer_on_rename" AFTER UPDATE OF "name" ON "customers"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name")
  EXECUTE FUNCTION "offering_users_follow_customer"();

-- ...and every version of its terms written, activated, deactivated, moved or deleted.
CREATE FUNCTION "offering_users_follow_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  offering uuid;
  active boolean;
BEGIN
  FOR offering IN
    SELECT DISTINCT id FROM unnest(ARRAY[
      CASE WHEN TG_OP <> 'INSERT' THEN OLD."offering_id" END,
      CASE WHEN TG_OP <> 'DELETE' THEN NEW."offering_id" END
    ]) AS id WHERE id IS NOT NULL
  LOOP
    PERFORM FROM "offerings" WHERE "id" = offering FOR NO KEY UPDATE;
    active := EXISTS (SELECT FROM "offering_terms_of_service" WHERE "offering_id" = offering AND "is_active");
    UPDATE "offering_users" SET "offering_has_active_terms" = active
    WHERE "offering_id" = offering AND "offering_has_active_terms" <> active;
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER "offering_users_follow_terms_on_write" AFTER INSERT OR DELETE OR UPDATE OF "offering_id", "is_active"
  ON "offering_terms_of_service" FOR EACH ROW EXECUTE FUNCTION "offering_users_follow_terms"();

CREATE FUNCTION "offering_users_forget_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "offering_users" SET "offering_has_active_terms" = false WHERE "offering_has_active_terms";
  RETURN NULL;
END $$;

CREATE TRIGGER "offering_users_forget_terms_on_truncate" AFTER TRUNCATE ON "offering_terms_of_service"
  FOR EACH STATEMENT EXECUTE FUNCTION "offering_users_forget_terms"();

-- The offering users already here.
UPDATE "offering_users" AS ou
SET "offering_name" = o."name", "customer_id" = o."customer_id", "customer_name" = c."name",
  "offering_has_active_terms" = EXISTS (
    SELECT FROM "offering_terms_of_service" AS t WHERE t."offering_id" = ou."offering_id" AND t."is_active"
  )
FROM "offerings" AS o JOIN "customers" AS c ON c."id" = o."customer_id"
WHERE o."id" = ou."offering_id";

ALTER TABLE "offering_users" ALTER COLUMN "customer_id" SET NOT NULL;
