-- AlterTable
ALTER TABLE "offerings" ADD COLUMN     "slug" VARCHAR(50) NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "offerings_slug_idx" ON "offerings"("slug");

-- Offerings get slugs as customers, projects and resources do (gateway_assign_slug, from the site-agent migration).
CREATE TRIGGER offerings_slug BEFORE INSERT ON "offerings" FOR EACH ROW EXECUTE FUNCTION gateway_assign_slug();

UPDATE "offerings" t SET slug = s.slug FROM (
  SELECT id, gateway_slugify(name) || CASE WHEN n = 1 THEN '' ELSE '-' || n END AS slug
  FROM (SELECT id, name, row_number() OVER (PARTITION BY gateway_slugify(name) ORDER BY created, id) AS n FROM "offerings") r
) s WHERE t.id = s.id;
