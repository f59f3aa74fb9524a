-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "end_date_updated_at" TIMESTAMPTZ(6),
ADD COLUMN     "is_industry" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "oecd_fos_2007_code" VARCHAR(80);

-- Waldur's Project.save stamps end_date_updated_at whenever an update changes end_date (not on creation); the trigger
-- keeps that rule for every writer.
CREATE FUNCTION gateway_stamp_end_date_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.end_date_updated_at := now();
  RETURN NEW;
END
$$;

CREATE TRIGGER projects_end_date_updated_at BEFORE UPDATE OF end_date ON "projects" FOR EACH ROW
  WHEN (OLD.end_date IS DISTINCT FROM NEW.end_date) EXECUTE FUNCTION gateway_stamp_end_date_change();
