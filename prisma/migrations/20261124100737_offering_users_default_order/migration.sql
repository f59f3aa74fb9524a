-- CreateIndex
CREATE INDEX "offering_users_username_created_id_idx" ON "offering_users"("username", "created", "id");
