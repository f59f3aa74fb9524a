-- The tallies are folded every few seconds: each fold deletes the rows it sums, so the tables fill with dead rows
-- faster than PostgreSQL's default (20% of the table) would vacuum them, and a count would read through them.
-- Vacuum and analyze them after a fixed number of changes instead.
ALTER TABLE "offering_user_tallies" SET (
  autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000,
  autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000,
  autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 1000
);

ALTER TABLE "event_tallies" SET (
  autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000,
  autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000,
  autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 1000
);
