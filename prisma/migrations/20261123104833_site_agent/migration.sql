-- AlterTable
ALTER TABLE "customers" ADD COLUMN     "slug" VARCHAR(50) NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "offerings" ADD COLUMN     "backend_id" VARCHAR(255) NOT NULL DEFAULT '',
ADD COLUMN     "partitions" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "end_date" DATE,
ADD COLUMN     "slug" VARCHAR(50) NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "resources" ADD COLUMN     "downscaled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "end_date_updated_at" TIMESTAMPTZ(6),
ADD COLUMN     "last_sync" TIMESTAMPTZ(6),
ADD COLUMN     "paused" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "restrict_member_access" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "slug" VARCHAR(50) NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "agent_identities" (
    "id" UUID NOT NULL,
    "offering_id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "version" VARCHAR(100),
    "dependencies" JSONB NOT NULL DEFAULT '[]',
    "config_file_path" VARCHAR(500),
    "config_file_content" TEXT,
    "last_restarted" TIMESTAMPTZ(6),
    "created_by_id" UUID,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_identities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_services" (
    "id" UUID NOT NULL,
    "identity_id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "mode" VARCHAR(100) NOT NULL DEFAULT '',
    "statistics" JSONB NOT NULL DEFAULT '{}',
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_services_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_processors" (
    "id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "backend_type" VARCHAR(255) NOT NULL DEFAULT '',
    "backend_version" VARCHAR(100),
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_processors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ssh_keys" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "name" VARCHAR(150) NOT NULL,
    "public_key" TEXT NOT NULL,
    "type" VARCHAR(50) NOT NULL,
    "fingerprint_md5" VARCHAR(47) NOT NULL,
    "fingerprint_sha256" VARCHAR(60) NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ssh_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "component_user_usage_limits" (
    "id" UUID NOT NULL,
    "resource_id" UUID NOT NULL,
    "component_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "limit" DECIMAL(20,2) NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "component_user_usage_limits_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_identities_name_idx" ON "agent_identities"("name");

-- CreateIndex
CREATE UNIQUE INDEX "agent_identities_offering_id_name_key" ON "agent_identities"("offering_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "agent_services_identity_id_name_key" ON "agent_services"("identity_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "agent_processors_service_id_name_key" ON "agent_processors"("service_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ssh_keys_user_id_fingerprint_sha256_key" ON "ssh_keys"("user_id", "fingerprint_sha256");

-- CreateIndex
CREATE UNIQUE INDEX "component_user_usage_limits_resource_id_component_id_user_i_key" ON "component_user_usage_limits"("resource_id", "component_id", "user_id");

-- CreateIndex
CREATE INDEX "customers_slug_idx" ON "customers"("slug");

-- CreateIndex
CREATE INDEX "projects_slug_idx" ON "projects"("slug");

-- CreateIndex
CREATE INDEX "resources_slug_idx" ON "resources"("slug");

-- AddForeignKey
ALTER TABLE "agent_identities" ADD CONSTRAINT "agent_identities_offering_id_fkey" FOREIGN KEY ("offering_id") REFERENCES "offerings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_identities" ADD CONSTRAINT "agent_identities_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_services" ADD CONSTRAINT "agent_services_identity_id_fkey" FOREIGN KEY ("identity_id") REFERENCES "agent_identities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_processors" ADD CONSTRAINT "agent_processors_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "agent_services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ssh_keys" ADD CONSTRAINT "ssh_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "component_user_usage_limits" ADD CONSTRAINT "component_user_usage_limits_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "resources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "component_user_usage_limits" ADD CONSTRAINT "component_user_usage_limits_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "offering_components"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "component_user_usage_limits" ADD CONSTRAINT "component_user_usage_limits_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Slugs (Waldur's SlugMixin): derived from the name when a row is inserted without one, unique per table
-- by a numeric suffix, never changed afterwards. A trigger, so every writer (services, seeds, fixtures) gets one.
CREATE FUNCTION gateway_slugify(name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(nullif(left(trim(both '-' from regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g')), 40), ''), 'item')
$$;

CREATE FUNCTION gateway_assign_slug() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  base text := gateway_slugify(NEW.name);
  candidate text := base;
  suffix int := 1;
  taken boolean;
BEGIN
  IF NEW.slug <> '' THEN
    RETURN NEW;
  END IF;
  LOOP
    EXECUTE format('SELECT exists(SELECT 1 FROM %I WHERE slug = $1)', TG_TABLE_NAME) INTO taken USING candidate;
    EXIT WHEN NOT taken;
    suffix := suffix + 1;
    candidate := base || '-' || suffix;
  END LOOP;
  NEW.slug := candidate;
  RETURN NEW;
END
$$;

CREATE TRIGGER customers_slug BEFORE INSERT ON "customers" FOR EACH ROW EXECUTE FUNCTION gateway_assign_slug();
CREATE TRIGGER projects_slug BEFORE INSERT ON "projects" FOR EACH ROW EXECUTE FUNCTION gateway_assign_slug();
CREATE TRIGGER resources_slug BEFORE INSERT ON "resources" FOR EACH ROW EXECUTE FUNCTION gateway_assign_slug();

UPDATE "customers" t SET slug = s.slug FROM (
  SELECT id, gateway_slugify(name) || CASE WHEN n = 1 THEN '' ELSE '-' || n END AS slug
  FROM (SELECT id, name, row_number() OVER (PARTITION BY gateway_slugify(name) ORDER BY created, id) AS n FROM "customers") r
) s WHERE t.id = s.id;
UPDATE "projects" t SET slug = s.slug FROM (
  SELECT id, gateway_slugify(name) || CASE WHEN n = 1 THEN '' ELSE '-' || n END AS slug
  FROM (SELECT id, name, row_number() OVER (PARTITION BY gateway_slugify(name) ORDER BY created, id) AS n FROM "projects") r
) s WHERE t.id = s.id;
UPDATE "resources" t SET slug = s.slug FROM (
  SELECT id, gateway_slugify(name) || CASE WHEN n = 1 THEN '' ELSE '-' || n END AS slug
  FROM (SELECT id, name, row_number() OVER (PARTITION BY gateway_slugify(name) ORDER BY created, id) AS n FROM "resources") r
) s WHERE t.id = s.id;
