-- The console's Overview charts the last hour per minute (server/ActivityStats): credits
-- charged, A2W runs and runtime runs started. Each is one range query on time; without
-- these indexes each scanned its whole table on every refresh (up to twice a second).
CREATE INDEX credit_ledger_by_time ON credit_ledger(at);
CREATE INDEX a2w_runs_by_time ON a2w_runs(created_at);
CREATE INDEX runtime_runs_by_time ON runtime_runs(created_at);
