-- CreateTable
CREATE TABLE "event_subscriptions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_digest" CHAR(64) NOT NULL,
    "object_type" VARCHAR(64) NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "source_ip" VARCHAR(45),
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_subscription_queues" (
    "id" UUID NOT NULL,
    "subscription_id" UUID NOT NULL,
    "offering_id" UUID NOT NULL,
    "object_type" VARCHAR(64) NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_subscription_queues_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_consumer_queues" (
    "id" UUID NOT NULL,
    "identity_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_digest" CHAR(64) NOT NULL,
    "rmq_username" VARCHAR(32) NOT NULL,
    "object_types" TEXT[],
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_consumer_queues_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "broker_outbox" (
    "id" SERIAL NOT NULL,
    "vhost" VARCHAR(64) NOT NULL,
    "queue" VARCHAR(255) NOT NULL,
    "body" TEXT NOT NULL,
    "created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_until" TIMESTAMPTZ(6),
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "broker_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "event_subscriptions_token_digest_idx" ON "event_subscriptions"("token_digest");

-- CreateIndex
CREATE UNIQUE INDEX "event_subscriptions_user_id_object_type_token_digest_key" ON "event_subscriptions"("user_id", "object_type", "token_digest");

-- CreateIndex
CREATE INDEX "event_subscription_queues_offering_id_object_type_idx" ON "event_subscription_queues"("offering_id", "object_type");

-- CreateIndex
CREATE UNIQUE INDEX "event_subscription_queues_subscription_id_offering_id_objec_key" ON "event_subscription_queues"("subscription_id", "offering_id", "object_type");

-- CreateIndex
CREATE UNIQUE INDEX "agent_consumer_queues_identity_id_key" ON "agent_consumer_queues"("identity_id");

-- CreateIndex
CREATE UNIQUE INDEX "agent_consumer_queues_rmq_username_key" ON "agent_consumer_queues"("rmq_username");

-- CreateIndex
CREATE INDEX "agent_consumer_queues_token_digest_idx" ON "agent_consumer_queues"("token_digest");

-- AddForeignKey
ALTER TABLE "event_subscriptions" ADD CONSTRAINT "event_subscriptions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event_subscription_queues" ADD CONSTRAINT "event_subscription_queues_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "event_subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event_subscription_queues" ADD CONSTRAINT "event_subscription_queues_offering_id_fkey" FOREIGN KEY ("offering_id") REFERENCES "offerings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_consumer_queues" ADD CONSTRAINT "agent_consumer_queues_identity_id_fkey" FOREIGN KEY ("identity_id") REFERENCES "agent_identities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_consumer_queues" ADD CONSTRAINT "agent_consumer_queues_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
