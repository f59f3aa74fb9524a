-- AlterTable
ALTER TABLE "offering_users" ADD COLUMN     "state_changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Records written before this migration: their last modification is the latest moment their state can have changed.
UPDATE "offering_users" SET "state_changed_at" = "modified";

-- When a record entered its state: its creation, or the write that changed its state. That write's "modified" is the
-- application's clock; a write that leaves "modified" alone (none does today) takes the transaction's time.
CREATE FUNCTION "offering_users_note_state_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW."state_changed_at" := NEW."modified";
  ELSIF NEW."modified" IS DISTINCT FROM OLD."modified" THEN
    NEW."state_changed_at" := NEW."modified";
  ELSE
    NEW."state_changed_at" := now();
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "offering_users_note_state_on_insert" BEFORE INSERT ON "offering_users"
  FOR EACH ROW EXECUTE FUNCTION "offering_users_note_state_change"();

CREATE TRIGGER "offering_users_note_state_on_change" BEFORE UPDATE OF "state" ON "offering_users"
  FOR EACH ROW WHEN (OLD."state" IS DISTINCT FROM NEW."state")
  EXECUTE FUNCTION "offering_users_note_state_change"();

-- CreateIndex
CREATE INDEX "offering_users_state_state_changed_at_idx" ON "offering_users"("state", "state_changed_at");

-- CreateIndex
CREATE INDEX "offering_users_state_changed_at_created_id_idx" ON "offering_users"("state_changed_at", "created", "id");
