-- The console lists every run newest activity first, a page at a time
-- (TrajectoryRepository::list: ORDER BY updated_at DESC LIMIT/OFFSET). Without an index
-- on updated_at, each page scanned and sorted the whole table: ~300 ms a page with
-- 100,000 runs (bench/console). With it, a page reads just its rows.
CREATE INDEX trajectories_by_activity ON trajectories(updated_at);
