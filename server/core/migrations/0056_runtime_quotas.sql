-- What visitors store is counted against quotas (runtime.maxStoredBytesPerSession,
-- runtime.maxStoredBytesPerSite) and telemetry is purged after
-- runtime.telemetryRetentionHours: a telemetry batch keeps its size, and both the sum of a
-- session's batches and the purge by age are range queries on an index.
ALTER TABLE runtime_telemetry ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
UPDATE runtime_telemetry SET bytes = LENGTH(CAST(events AS BLOB)) + LENGTH(COALESCE(page_url, ''));
CREATE INDEX runtime_telemetry_by_session ON runtime_telemetry(session_id, bytes);
CREATE INDEX runtime_telemetry_by_time ON runtime_telemetry(created_at);
CREATE INDEX runtime_snapshots_by_expiry ON runtime_snapshots(expires_at);
