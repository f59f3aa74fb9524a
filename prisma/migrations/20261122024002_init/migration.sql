-- CreateEnum
CREATE TYPE "OfferingState" AS ENUM ('DRAFT', 'ACTIVE', 'PAUSED', 'ARCHIVED');

-- CreateEnum
CREATE TYPE "BillingType" AS ENUM ('USAGE', 'FIXED', 'LIMIT', 'ONE');

-- CreateEnum
CREATE TYPE "ScopeType" AS ENUM ('CUSTOMER', 'PROJECT', 'OFFERING');

-- CreateEnum
CREATE TYPE "OfferingUserState" AS ENUM ('CREATION_REQUESTED', 'CREATING', 'PENDING_ACCOUNT_LINKING', 'PENDING_ADDITIONAL_VALIDATION', 'OK', 'DELETION_REQUESTED', 'DELETING', 'DELETED', 'ERROR_CREATING', 'ERROR_DELETING');

-- CreateEnum
CREATE TYPE "EventScopeType" AS ENUM ('USER', 'CUSTOMER', 'PROJECT', 'OFFERING', 'SERVICE_PROVIDER', 'OFFERING_USER');

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "username" VARCHAR(150) NOT NULL,
    "email" VARCHAR(320) NOT NULL DEFAULT '',
    "first_name" VARCHAR(100) NOT NULL DEFAULT '',
    "last_name" VARCHAR(100) NOT NULL DEFAULT '',
    "is_staff" BOOLEAN NOT NULL DEFAULT false,
    "is_support" BOOLEAN NOT NULL DEFAULT false,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "password_hash" TEXT,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth_tokens" (
    "key_digest" CHAR(64) NOT NULL,
    "user_id" UUID NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auth_tokens_pkey" PRIMARY KEY ("key_digest")
);

-- CreateTable
CREATE TABLE "customers" (
    "id" UUID NOT NULL,
    "name" VARCHAR(150) NOT NULL,
    "abbreviation" VARCHAR(12) NOT NULL DEFAULT '',
    "email" VARCHAR(320) NOT NULL DEFAULT '',
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "projects" (
    "id" UUID NOT NULL,
    "name" VARCHAR(500) NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "customer_id" UUID NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "service_providers" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "service_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offerings" (
    "id" UUID NOT NULL,
    "name" VARCHAR(150) NOT NULL,
    "type" VARCHAR(100) NOT NULL,
    "state" "OfferingState" NOT NULL DEFAULT 'DRAFT',
    "customer_id" UUID NOT NULL,
    "plugin_options" JSONB NOT NULL DEFAULT '{}',
    "description" TEXT NOT NULL DEFAULT '',
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "offerings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offering_components" (
    "id" UUID NOT NULL,
    "offering_id" UUID NOT NULL,
    "type" VARCHAR(50) NOT NULL,
    "name" VARCHAR(150) NOT NULL,
    "billing_type" "BillingType" NOT NULL,
    "measured_unit" VARCHAR(30) NOT NULL DEFAULT '',
    "limit_period" VARCHAR(20),
    "limit_amount" INTEGER,

    CONSTRAINT "offering_components_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offering_plans" (
    "id" UUID NOT NULL,
    "offering_id" UUID NOT NULL,
    "name" VARCHAR(150) NOT NULL,
    "unit_price" DECIMAL(22,10) NOT NULL DEFAULT 0,
    "unit" VARCHAR(30) NOT NULL DEFAULT 'month',
    "archived" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "offering_plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "role_grants" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" VARCHAR(40) NOT NULL,
    "scope_type" "ScopeType" NOT NULL,
    "scope_id" UUID NOT NULL,
    "expiration_time" TIMESTAMPTZ(6),
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_by_id" UUID,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "role_grants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offering_users" (
    "id" UUID NOT NULL,
    "offering_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "username" VARCHAR(100),
    "state" "OfferingUserState" NOT NULL DEFAULT 'CREATION_REQUESTED',
    "is_restricted" BOOLEAN NOT NULL DEFAULT false,
    "service_provider_comment" TEXT NOT NULL DEFAULT '',
    "service_provider_comment_url" VARCHAR(200) NOT NULL DEFAULT '',
    "backend_metadata" JSONB NOT NULL DEFAULT '{}',
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "offering_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" SERIAL NOT NULL,
    "uuid" UUID NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "event_type" VARCHAR(100) NOT NULL,
    "message" TEXT NOT NULL,
    "context" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_scopes" (
    "event_id" INTEGER NOT NULL,
    "scope_type" "EventScopeType" NOT NULL,
    "scope_id" UUID NOT NULL,

    CONSTRAINT "event_scopes_pkey" PRIMARY KEY ("event_id","scope_type","scope_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key" ON "users"("username");

-- CreateIndex
CREATE INDEX "auth_tokens_user_id_idx" ON "auth_tokens"("user_id");

-- CreateIndex
CREATE INDEX "projects_customer_id_idx" ON "projects"("customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "service_providers_customer_id_key" ON "service_providers"("customer_id");

-- CreateIndex
CREATE INDEX "offerings_customer_id_idx" ON "offerings"("customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "offering_components_offering_id_type_key" ON "offering_components"("offering_id", "type");

-- CreateIndex
CREATE INDEX "offering_plans_offering_id_idx" ON "offering_plans"("offering_id");

-- CreateIndex
CREATE INDEX "role_grants_user_id_is_active_idx" ON "role_grants"("user_id", "is_active");

-- CreateIndex
CREATE INDEX "role_grants_scope_type_scope_id_is_active_idx" ON "role_grants"("scope_type", "scope_id", "is_active");

-- CreateIndex
CREATE INDEX "offering_users_user_id_idx" ON "offering_users"("user_id");

-- CreateIndex
CREATE INDEX "offering_users_state_idx" ON "offering_users"("state");

-- CreateIndex
CREATE INDEX "offering_users_created_idx" ON "offering_users"("created");

-- CreateIndex
CREATE UNIQUE INDEX "offering_users_offering_id_user_id_key" ON "offering_users"("offering_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "events_uuid_key" ON "events"("uuid");

-- CreateIndex
CREATE INDEX "events_event_type_idx" ON "events"("event_type");

-- CreateIndex
CREATE INDEX "events_created_idx" ON "events"("created");

-- CreateIndex
CREATE INDEX "event_scopes_scope_type_scope_id_idx" ON "event_scopes"("scope_type", "scope_id");

-- AddForeignKey
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "projects" ADD CONSTRAINT "projects_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "service_providers" ADD CONSTRAINT "service_providers_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offerings" ADD CONSTRAINT "offerings_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offering_components" ADD CONSTRAINT "offering_components_offering_id_fkey" FOREIGN KEY ("offering_id") REFERENCES "offerings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offering_plans" ADD CONSTRAINT "offering_plans_offering_id_fkey" FOREIGN KEY ("offering_id") REFERENCES "offerings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "role_grants" ADD CONSTRAINT "role_grants_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offering_users" ADD CONSTRAINT "offering_users_offering_id_fkey" FOREIGN KEY ("offering_id") REFERENCES "offerings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offering_users" ADD CONSTRAINT "offering_users_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event_scopes" ADD CONSTRAINT "event_scopes_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
