-- CreateEnum
CREATE TYPE "ResourceState" AS ENUM ('CREATING', 'OK', 'ERRED', 'UPDATING', 'TERMINATING', 'TERMINATED');

-- CreateEnum
CREATE TYPE "OrderState" AS ENUM ('PENDING_CONSUMER', 'PENDING_PROVIDER', 'PENDING_PROJECT', 'PENDING_START_DATE', 'EXECUTING', 'DONE', 'ERRED', 'CANCELED', 'REJECTED');

-- CreateEnum
CREATE TYPE "OrderType" AS ENUM ('CREATE', 'UPDATE', 'TERMINATE');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "EventScopeType" ADD VALUE 'ORDER';
ALTER TYPE "EventScopeType" ADD VALUE 'RESOURCE';

-- CreateTable
CREATE TABLE "resources" (
    "id" UUID NOT NULL,
    "name" VARCHAR(150) NOT NULL DEFAULT '',
    "state" "ResourceState" NOT NULL DEFAULT 'CREATING',
    "backend_id" VARCHAR(255) NOT NULL DEFAULT '',
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "limits" JSONB NOT NULL DEFAULT '{}',
    "current_usages" JSONB NOT NULL DEFAULT '{}',
    "backend_metadata" JSONB NOT NULL DEFAULT '{}',
    "error_message" TEXT NOT NULL DEFAULT '',
    "end_date" DATE,
    "project_id" UUID NOT NULL,
    "offering_id" UUID NOT NULL,
    "plan_id" UUID,
    "scope_id" UUID,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "resources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" UUID NOT NULL,
    "type" "OrderType" NOT NULL DEFAULT 'CREATE',
    "state" "OrderState" NOT NULL DEFAULT 'PENDING_CONSUMER',
    "offering_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "plan_id" UUID,
    "resource_id" UUID,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "limits" JSONB NOT NULL DEFAULT '{}',
    "start_date" DATE,
    "request_comment" VARCHAR(255) NOT NULL DEFAULT '',
    "backend_id" VARCHAR(255) NOT NULL DEFAULT '',
    "error_message" TEXT NOT NULL DEFAULT '',
    "error_traceback" TEXT NOT NULL DEFAULT '',
    "created_by_id" UUID,
    "consumer_reviewed_by_id" UUID,
    "consumer_reviewed_at" TIMESTAMPTZ(6),
    "provider_reviewed_by_id" UUID,
    "provider_reviewed_at" TIMESTAMPTZ(6),
    "completed_at" TIMESTAMPTZ(6),
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "component_usages" (
    "id" UUID NOT NULL,
    "resource_id" UUID NOT NULL,
    "component_id" UUID NOT NULL,
    "usage" DECIMAL(20,2) NOT NULL DEFAULT 0,
    "description" VARCHAR(4096) NOT NULL DEFAULT '',
    "recurring" BOOLEAN NOT NULL DEFAULT false,
    "date" TIMESTAMPTZ(6) NOT NULL,
    "billing_period" DATE NOT NULL,
    "modified_by_id" UUID,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "component_usages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "component_user_usages" (
    "id" UUID NOT NULL,
    "component_usage_id" UUID NOT NULL,
    "username" VARCHAR(100) NOT NULL,
    "usage" DECIMAL(20,2) NOT NULL DEFAULT 0,
    "offering_user_id" UUID,
    "date" TIMESTAMPTZ(6) NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "component_user_usages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "resources_offering_id_state_idx" ON "resources"("offering_id", "state");

-- CreateIndex
CREATE INDEX "resources_project_id_idx" ON "resources"("project_id");

-- CreateIndex
CREATE INDEX "resources_created_idx" ON "resources"("created");

-- CreateIndex
CREATE INDEX "orders_offering_id_state_idx" ON "orders"("offering_id", "state");

-- CreateIndex
CREATE INDEX "orders_project_id_idx" ON "orders"("project_id");

-- CreateIndex
CREATE INDEX "orders_resource_id_idx" ON "orders"("resource_id");

-- CreateIndex
CREATE INDEX "orders_created_idx" ON "orders"("created");

-- CreateIndex
CREATE INDEX "component_usages_billing_period_idx" ON "component_usages"("billing_period");

-- CreateIndex
CREATE UNIQUE INDEX "component_usages_resource_id_component_id_billing_period_key" ON "component_usages"("resource_id", "component_id", "billing_period");

-- CreateIndex
CREATE INDEX "component_user_usages_username_idx" ON "component_user_usages"("username");

-- CreateIndex
CREATE UNIQUE INDEX "component_user_usages_component_usage_id_username_key" ON "component_user_usages"("component_usage_id", "username");

-- AddForeignKey
ALTER TABLE "resources" ADD CONSTRAINT "resources_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "resources" ADD CONSTRAINT "resources_offering_id_fkey" FOREIGN KEY ("offering_id") REFERENCES "offerings"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "resources" ADD CONSTRAINT "resources_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "offering_plans"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "resources" ADD CONSTRAINT "resources_scope_id_fkey" FOREIGN KEY ("scope_id") REFERENCES "resources"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_offering_id_fkey" FOREIGN KEY ("offering_id") REFERENCES "offerings"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "offering_plans"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "resources"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_consumer_reviewed_by_id_fkey" FOREIGN KEY ("consumer_reviewed_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_provider_reviewed_by_id_fkey" FOREIGN KEY ("provider_reviewed_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "component_usages" ADD CONSTRAINT "component_usages_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "resources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "component_usages" ADD CONSTRAINT "component_usages_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "offering_components"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "component_usages" ADD CONSTRAINT "component_usages_modified_by_id_fkey" FOREIGN KEY ("modified_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "component_user_usages" ADD CONSTRAINT "component_user_usages_component_usage_id_fkey" FOREIGN KEY ("component_usage_id") REFERENCES "component_usages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "component_user_usages" ADD CONSTRAINT "component_user_usages_offering_user_id_fkey" FOREIGN KEY ("offering_user_id") REFERENCES "offering_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
