-- The console's Overview charts the last hour per minute (server/ActivityStats): runs by
-- status, request latency, deliveries by status, credits charged, A2W runs and runtime
-- runs started. Each is one range query on time that reads only these indexes (each
-- holds the columns its query needs, so no table row is visited): with a busy hour
-- (6,000 runs) the table lookups of the plain time indexes cost 50-100 ms a query
-- (bench/console), over a 16 ms frame on the UI thread.
CREATE INDEX trajectories_by_time_status ON trajectories(updated_at, status);
CREATE INDEX api_requests_by_time_latency ON api_requests(started_at, finished_at, endpoint);
CREATE INDEX webhook_deliveries_by_time_status ON webhook_deliveries(created_at, status);
CREATE INDEX credit_ledger_by_time ON credit_ledger(at, endpoint, credits_milli);
CREATE INDEX a2w_runs_by_time ON a2w_runs(created_at);
CREATE INDEX runtime_runs_by_time ON runtime_runs(created_at);
