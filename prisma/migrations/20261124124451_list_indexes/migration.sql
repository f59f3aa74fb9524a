-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- DropIndex
DROP INDEX "events_created_idx";

-- DropIndex
DROP INDEX "events_event_type_idx";

-- CreateIndex
CREATE INDEX "events_event_type_created_id_idx" ON "events"("event_type", "created", "id");

-- CreateIndex
CREATE INDEX "events_created_id_idx" ON "events"("created", "id");

-- CreateIndex
CREATE INDEX "offering_users_modified_created_id_idx" ON "offering_users"("modified", "created", "id");

-- CreateIndex
CREATE INDEX "users_username_trgm_idx" ON "users" USING GIN ("username" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "users_first_name_idx" ON "users"("first_name");

-- CreateIndex
CREATE INDEX "users_last_name_idx" ON "users"("last_name");

-- Offering-user visibility tests this flag through a join; without statistics on it the planner guesses that one
-- offering in two hundred has it and picks nested loops that run the user scan once per offering.
CREATE STATISTICS "offerings_manage_offering_users_stats" ON ((plugin_options #> '{service_provider_can_create_offering_user}')) FROM "offerings";
