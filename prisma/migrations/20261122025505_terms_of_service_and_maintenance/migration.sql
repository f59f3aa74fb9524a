-- CreateEnum
CREATE TYPE "MaintenanceState" AS ENUM ('DRAFT', 'SCHEDULED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "AnnouncementType" AS ENUM ('INFORMATION', 'WARNING', 'DANGER');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "EventScopeType" ADD VALUE 'MAINTENANCE';
ALTER TYPE "EventScopeType" ADD VALUE 'TERMS_OF_SERVICE';

-- CreateTable
CREATE TABLE "offering_terms_of_service" (
    "id" UUID NOT NULL,
    "offering_id" UUID NOT NULL,
    "terms_of_service" TEXT NOT NULL DEFAULT '',
    "terms_of_service_link" VARCHAR(200) NOT NULL DEFAULT '',
    "version" VARCHAR(50) NOT NULL DEFAULT '',
    "is_active" BOOLEAN NOT NULL DEFAULT false,
    "requires_reconsent" BOOLEAN NOT NULL DEFAULT false,
    "grace_period_days" INTEGER NOT NULL DEFAULT 60,
    "activated_at" TIMESTAMPTZ(6),
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "offering_terms_of_service_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_offering_consents" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "offering_id" UUID NOT NULL,
    "version" VARCHAR(50) NOT NULL DEFAULT '',
    "agreement_date" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revocation_date" TIMESTAMPTZ(6),
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_offering_consents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "maintenance_announcements" (
    "id" UUID NOT NULL,
    "name" VARCHAR(150) NOT NULL,
    "message" VARCHAR(2000) NOT NULL DEFAULT '',
    "internal_notes" VARCHAR(2000) NOT NULL DEFAULT '',
    "maintenance_type" INTEGER NOT NULL DEFAULT 1,
    "external_reference_url" VARCHAR(200) NOT NULL DEFAULT '',
    "state" "MaintenanceState" NOT NULL DEFAULT 'DRAFT',
    "scheduled_start" TIMESTAMPTZ(6) NOT NULL,
    "scheduled_end" TIMESTAMPTZ(6) NOT NULL,
    "actual_start" TIMESTAMPTZ(6),
    "actual_end" TIMESTAMPTZ(6),
    "service_provider_id" UUID NOT NULL,
    "created_by_id" UUID,
    "backend_id" VARCHAR(255) NOT NULL DEFAULT '',
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "maintenance_announcements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "maintenance_announcement_offerings" (
    "id" UUID NOT NULL,
    "maintenance_id" UUID NOT NULL,
    "offering_id" UUID NOT NULL,
    "impact_level" INTEGER NOT NULL DEFAULT 1,
    "impact_description" TEXT NOT NULL DEFAULT '',
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "maintenance_announcement_offerings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "admin_announcements" (
    "id" UUID NOT NULL,
    "description" VARCHAR(4096) NOT NULL,
    "type" "AnnouncementType" NOT NULL DEFAULT 'INFORMATION',
    "active_from" TIMESTAMPTZ(6) NOT NULL,
    "active_to" TIMESTAMPTZ(6) NOT NULL,
    "maintenance_id" UUID,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_announcements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "offering_terms_of_service_offering_id_is_active_idx" ON "offering_terms_of_service"("offering_id", "is_active");

-- CreateIndex
CREATE INDEX "user_offering_consents_offering_id_idx" ON "user_offering_consents"("offering_id");

-- CreateIndex
CREATE UNIQUE INDEX "user_offering_consents_user_id_offering_id_key" ON "user_offering_consents"("user_id", "offering_id");

-- CreateIndex
CREATE INDEX "maintenance_announcements_service_provider_id_idx" ON "maintenance_announcements"("service_provider_id");

-- CreateIndex
CREATE INDEX "maintenance_announcements_state_scheduled_start_idx" ON "maintenance_announcements"("state", "scheduled_start");

-- CreateIndex
CREATE UNIQUE INDEX "maintenance_announcement_offerings_maintenance_id_offering__key" ON "maintenance_announcement_offerings"("maintenance_id", "offering_id");

-- CreateIndex
CREATE UNIQUE INDEX "admin_announcements_maintenance_id_key" ON "admin_announcements"("maintenance_id");

-- CreateIndex
CREATE INDEX "admin_announcements_active_from_active_to_idx" ON "admin_announcements"("active_from", "active_to");

-- AddForeignKey
ALTER TABLE "offering_terms_of_service" ADD CONSTRAINT "offering_terms_of_service_offering_id_fkey" FOREIGN KEY ("offering_id") REFERENCES "offerings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_offering_consents" ADD CONSTRAINT "user_offering_consents_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_offering_consents" ADD CONSTRAINT "user_offering_consents_offering_id_fkey" FOREIGN KEY ("offering_id") REFERENCES "offerings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "maintenance_announcements" ADD CONSTRAINT "maintenance_announcements_service_provider_id_fkey" FOREIGN KEY ("service_provider_id") REFERENCES "service_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "maintenance_announcements" ADD CONSTRAINT "maintenance_announcements_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "maintenance_announcement_offerings" ADD CONSTRAINT "maintenance_announcement_offerings_maintenance_id_fkey" FOREIGN KEY ("maintenance_id") REFERENCES "maintenance_announcements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "maintenance_announcement_offerings" ADD CONSTRAINT "maintenance_announcement_offerings_offering_id_fkey" FOREIGN KEY ("offering_id") REFERENCES "offerings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "admin_announcements" ADD CONSTRAINT "admin_announcements_maintenance_id_fkey" FOREIGN KEY ("maintenance_id") REFERENCES "maintenance_announcements"("id") ON DELETE CASCADE ON UPDATE CASCADE;
