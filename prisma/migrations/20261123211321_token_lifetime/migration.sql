-- AlterTable
ALTER TABLE "auth_tokens" ADD COLUMN     "last_used" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "token_lifetime" INTEGER;

-- Waldur's MinValueValidator(60); the service answers 400 before this is reached.
ALTER TABLE "users" ADD CONSTRAINT "users_token_lifetime_check" CHECK ("token_lifetime" IS NULL OR "token_lifetime" >= 60);
